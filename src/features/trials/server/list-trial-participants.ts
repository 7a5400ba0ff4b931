import 'server-only';
/**
 * The trial's participants as clinicians (their organisations' patients) and admins (all) see them: by
 * pseudonym, with arm, dates and where they stand. No stratum, block or position (allocation concealment).
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, trialEnrolments } from '@/db/schema';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { AppError } from '@/lib/errors';
import { requirePermission } from '@/lib/server/authorization';
import type { TrialParticipant } from '../contracts';
import { followUpEndsOn, isoDayOf, participantStatusOf } from '../protocol';
import { byPseudonym, findTrial, type TrialActor, unknownTrialMessage } from './trial-records';

export const notAllowedToListMessage = 'Only admins and clinicians may see trial participants.';

export async function listTrialParticipants(options: {
  database: Database;
  trialId: string;
  viewer: TrialActor | null;
  now: Date;
}): Promise<TrialParticipant[]> {
  const { database } = options;
  const viewer = await requirePermission({
    actor: options.viewer,
    permission: 'trials:enrol',
    message: notAllowedToListMessage,
    audit: { database, action: 'trial.participants.list' },
  });
  const trial = await findTrial(database, options.trialId);
  if (trial === null) throw new AppError('not_found', unknownTrialMessage);
  const conditions = cohortConditions(database, await findCohortScope({ database, actor: viewer }));
  if (conditions === null) return [];
  const today = isoDayOf(options.now);
  const rows = await database
    .select({
      patientId: trialEnrolments.patientId,
      pseudonym: patients.pseudonym,
      arm: trialEnrolments.arm,
      enrolledOn: trialEnrolments.enrolledOn,
      withdrawnOn: trialEnrolments.withdrawnOn,
      lostToFollowUpOn: trialEnrolments.lostToFollowUpOn,
      discontinuedOn: trialEnrolments.discontinuedOn,
    })
    .from(trialEnrolments)
    .innerJoin(patients, eq(patients.id, trialEnrolments.patientId))
    .where(and(eq(trialEnrolments.trialId, trial.id), conditions.patients))
    .orderBy(byPseudonym);
  return rows.map((row) => ({
    patientId: row.patientId,
    pseudonym: row.pseudonym,
    arm: row.arm,
    enrolledOn: row.enrolledOn,
    followUpEndsOn: followUpEndsOn(row.enrolledOn, trial.weeks),
    status: participantStatusOf(row, trial.weeks, today),
  }));
}
