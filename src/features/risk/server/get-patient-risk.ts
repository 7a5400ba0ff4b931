import 'server-only';
/**
 * One patient's latest risk for the Patient Profile: from the latest ready model version that scored them,
 * for care teams only (admins; clinicians for their organisations' patients). null when not scored or not
 * theirs to see.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { patients, riskModels, riskScores } from '@/db/schema';
import { hasPermission } from '@/lib/permissions';
import type { SessionUser } from '@/lib/server/session';
import type { PatientRiskDto } from '../schemas';

export async function getPatientRisk(options: {
  database: Database;
  actor: SessionUser;
  patientId: string;
}): Promise<PatientRiskDto | null> {
  const { database, actor } = options;
  if (!hasPermission(actor.role, 'patients:list')) return null;
  const conditions = cohortConditions(database, await findCohortScope({ database, actor }));
  if (conditions === null) return null;
  const [row] = await database
    .select({ risk: riskScores.risk, reasons: riskScores.reasons, scoredOn: riskScores.scoredOn, version: riskModels.version })
    .from(riskScores)
    .innerJoin(riskModels, eq(riskModels.id, riskScores.modelId))
    .innerJoin(patients, eq(patients.id, riskScores.patientId))
    .where(and(eq(riskScores.patientId, options.patientId), eq(riskModels.status, 'ready'), conditions.patients))
    .orderBy(desc(riskModels.version))
    .limit(1);
  if (row === undefined) return null;
  return { risk: row.risk, reasons: row.reasons.map((reason) => reason.words), scoredOn: row.scoredOn, modelVersion: row.version };
}
