import 'server-only';
/**
 * A patient's own participation (found through patients.user_id): their arm is theirs to know once
 * enrolled. Anyone without a linked patient record is simply not enrolled.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, trialEnrolments } from '@/db/schema';
import { requireActor } from '@/lib/server/authorization';
import type { TrialParticipation } from '../contracts';
import { followUpEndsOn, isoDayOf, participantStatusOf } from '../protocol';
import { findTrial, type TrialActor } from './trial-records';

export async function getTrialParticipation(options: {
  database: Database;
  trialId: string;
  viewer: TrialActor | null;
  now: Date;
}): Promise<TrialParticipation> {
  const { database } = options;
  const viewer = requireActor(options.viewer);
  const trial = await findTrial(database, options.trialId);
  if (trial === null) return { enrolled: false };
  const [row] = await database
    .select({
      arm: trialEnrolments.arm,
      enrolledOn: trialEnrolments.enrolledOn,
      withdrawnOn: trialEnrolments.withdrawnOn,
      lostToFollowUpOn: trialEnrolments.lostToFollowUpOn,
      discontinuedOn: trialEnrolments.discontinuedOn,
    })
    .from(trialEnrolments)
    .innerJoin(patients, eq(patients.id, trialEnrolments.patientId))
    .where(and(eq(trialEnrolments.trialId, trial.id), eq(patients.userId, viewer.id)));
  if (row === undefined) return { enrolled: false };
  return {
    enrolled: true,
    arm: row.arm,
    enrolledOn: row.enrolledOn,
    followUpEndsOn: followUpEndsOn(row.enrolledOn, trial.weeks),
    status: participantStatusOf(row, trial.weeks, isoDayOf(options.now)),
  };
}
