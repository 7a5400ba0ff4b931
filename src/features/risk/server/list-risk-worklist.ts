import 'server-only';
/**
 * The clinician's risk worklist: the patients of their organisations (admins: every patient) scored by the
 * latest ready model version, highest risk first, with the reasons in words and when they were last
 * contacted from the list. Patients appear by pseudonym only.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { patients, riskContacts, riskModels, riskScores } from '@/db/schema';
import { requirePermission } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import type { RiskWorklistDto } from '../schemas';

const maximumRows = 200;

export async function listRiskWorklist(options: { database: Database; actor: SessionUser | null }): Promise<RiskWorklistDto> {
  const { database } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'patients:list',
    message: 'The risk worklist is for care teams: clinicians see their organisations’ patients.',
  });
  const [model] = await database
    .select({ id: riskModels.id, version: riskModels.version })
    .from(riskModels)
    .where(eq(riskModels.status, 'ready'))
    .orderBy(desc(riskModels.version))
    .limit(1);
  const conditions = cohortConditions(database, await findCohortScope({ database, actor }));
  if (model === undefined || conditions === null) return { modelVersion: model?.version ?? null, scoredOn: null, rows: [] };
  const lastContact = database
    .select({ patientId: riskContacts.patientId, at: sql<Date>`max(${riskContacts.contactedAt})`.as('at') })
    .from(riskContacts)
    .groupBy(riskContacts.patientId)
    .as('last_contact');
  const rows = await database
    .select({
      patientId: patients.id,
      pseudonym: patients.pseudonym,
      synthetic: patients.synthetic,
      risk: riskScores.risk,
      reasons: riskScores.reasons,
      scoredOn: riskScores.scoredOn,
      lastContactedAt: lastContact.at,
    })
    .from(riskScores)
    .innerJoin(patients, eq(patients.id, riskScores.patientId))
    .leftJoin(lastContact, eq(lastContact.patientId, riskScores.patientId))
    .where(and(eq(riskScores.modelId, model.id), conditions.patients))
    .orderBy(desc(riskScores.risk), patients.pseudonym)
    .limit(maximumRows);
  return {
    modelVersion: model.version,
    scoredOn: rows[0]?.scoredOn ?? null,
    rows: rows.map((row) => ({
      patientId: row.patientId,
      pseudonym: row.pseudonym,
      synthetic: row.synthetic,
      risk: row.risk,
      reasons: row.reasons.map((reason) => reason.words),
      lastContactedAt: row.lastContactedAt === null ? null : new Date(row.lastContactedAt).toISOString(),
    })),
  };
}
