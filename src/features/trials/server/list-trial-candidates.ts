import 'server-only';
/**
 * The patients a clinician (their organisations') or an admin (anyone) may assess for the trial, with the
 * system's checks answered; those already enrolled are left out. Bounded: the first `limit` by pseudonym,
 * optionally only pseudonyms starting with `search`.
 */
import { and, eq, ilike, notExists } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, trialEnrolments } from '@/db/schema';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { AppError } from '@/lib/errors';
import { requirePermission } from '@/lib/server/authorization';
import type { TrialCandidate } from '../contracts';
import { isoDayOf, systemCriterionIds } from '../protocol';
import { byPseudonym, checkSystemCriteria, findTrial, type TrialActor, unknownTrialMessage } from './trial-records';

export const candidateLimit = 200;
export const notAllowedToAssessMessage = 'Only admins and clinicians may assess and enrol trial participants.';

export async function listTrialCandidates(options: {
  database: Database;
  trialId: string;
  viewer: TrialActor | null;
  now: Date;
  /** A pseudonym prefix (case-insensitive). */
  search?: string;
  limit?: number;
}): Promise<TrialCandidate[]> {
  const { database, now } = options;
  const viewer = await requirePermission({
    actor: options.viewer,
    permission: 'trials:enrol',
    message: notAllowedToAssessMessage,
    audit: { database, action: 'trial.candidates.list' },
  });
  if ((await findTrial(database, options.trialId)) === null) throw new AppError('not_found', unknownTrialMessage);
  const conditions = cohortConditions(database, await findCohortScope({ database, actor: viewer }));
  if (conditions === null) return [];
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? candidateLimit)), candidateLimit);
  // LIKE's own characters in a search are taken literally.
  const prefix = options.search?.trim().replace(/[\\%_]/g, (character) => `\\${character}`) ?? '';
  const rows = await database
    .select({ patientId: patients.id, pseudonym: patients.pseudonym })
    .from(patients)
    .where(
      and(
        conditions.patients,
        prefix === '' ? undefined : ilike(patients.pseudonym, `${prefix}%`),
        notExists(
          database
            .select({ patientId: trialEnrolments.patientId })
            .from(trialEnrolments)
            .where(and(eq(trialEnrolments.trialId, options.trialId), eq(trialEnrolments.patientId, patients.id))),
        ),
      ),
    )
    .orderBy(byPseudonym)
    .limit(limit);
  const checks = await checkSystemCriteria({
    database,
    trialId: options.trialId,
    patientIds: rows.map((row) => row.patientId),
    now,
    today: isoDayOf(now),
  });
  return rows.map((row) => {
    const patientChecks = checks.get(row.patientId);
    return {
      patientId: row.patientId,
      pseudonym: row.pseudonym,
      systemChecks: systemCriterionIds.map((criterionId) => ({ criterionId, met: patientChecks?.[criterionId] ?? false })),
    };
  });
}
