import 'server-only';
/**
 * Records how a participant left their allocated course (clinicians of their organisation, or admins):
 * withdrawn (no further follow-up), lost to follow-up, or discontinued (stopped the allocated intervention,
 * still followed). A reason is required; the date lies within the participant's follow-up and not in the
 * future. Withdrawal and discontinuation of the intervention give back the messaging programme the patient
 * had before enrolment (if it is still the intervention's); a loss leaves it, as nothing was decided.
 * Everyone stays in the analysis (intention to treat).
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, trialEnrolments } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { TrialExitKind } from '../contracts';
import { followUpEndsOn, interventionProgramme, isoDayOf } from '../protocol';
import { recordTrialExitSchema } from '../schemas';
import { notAllowedToAssessMessage } from './list-trial-candidates';
import {
  auditContextOf,
  parseAudited,
  findPatientInScope,
  findTrial,
  refuse,
  type TrialActor,
  unknownPatientMessage,
  unknownTrialMessage,
} from './trial-records';

const auditAction = 'trial.exit';

export async function recordTrialExit(options: {
  database: Database;
  actor: TrialActor | null;
  input: unknown;
  now: Date;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<{ patientId: string; kind: TrialExitKind; on: string }> {
  const { database, now } = options;
  const context = auditContextOf(options);
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:enrol',
    message: notAllowedToAssessMessage,
    audit: { database, action: auditAction, ...context },
  });
  const input = await parseAudited({
    schema: recordTrialExitSchema,
    input: options.input,
    label: 'The exit',
    database,
    action: auditAction,
    actor,
    context,
  });
  const today = isoDayOf(now);
  const details = { trialId: input.trialId, patientId: input.patientId, kind: input.kind };

  const outcome = await database.transaction(async (transaction): Promise<AppError | null> => {
    const trial = await findTrial(transaction, input.trialId);
    if (trial === null) return new AppError('not_found', unknownTrialMessage);
    const patient = await findPatientInScope({ database: transaction, actor, patientId: input.patientId, lock: true });
    if (patient === null) return new AppError('not_found', unknownPatientMessage);
    const [enrolment] = await transaction
      .select({
        arm: trialEnrolments.arm,
        enrolledOn: trialEnrolments.enrolledOn,
        previousProgramme: trialEnrolments.previousProgramme,
        withdrawnOn: trialEnrolments.withdrawnOn,
        lostToFollowUpOn: trialEnrolments.lostToFollowUpOn,
        discontinuedOn: trialEnrolments.discontinuedOn,
      })
      .from(trialEnrolments)
      .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.patientId, patient.id)))
      .for('update');
    if (enrolment === undefined) return new AppError('not_found', 'patientId: this patient is not enrolled in the trial.');
    if (enrolment.withdrawnOn !== null || enrolment.lostToFollowUpOn !== null)
      return new AppError('conflict', 'patientId: this participant has already left the trial (withdrawn or lost to follow-up).');
    if (input.kind === 'discontinued' && enrolment.discontinuedOn !== null)
      return new AppError('conflict', 'patientId: this participant’s discontinuation is already recorded.');
    const lastDay = followUpEndsOn(enrolment.enrolledOn, trial.weeks);
    if (input.on > today)
      return new AppError('validation', 'on: the date must not be in the future.', { fieldErrors: { on: 'Must not be in the future.' } });
    if (input.on < enrolment.enrolledOn)
      return new AppError('validation', `on: the date must not be before the enrolment (${enrolment.enrolledOn}).`, {
        fieldErrors: { on: `Must not be before ${enrolment.enrolledOn}.` },
      });
    if (input.on > lastDay)
      return new AppError('validation', `on: the participant’s follow-up ended on ${lastDay}.`, {
        fieldErrors: { on: `Follow-up ended on ${lastDay}.` },
      });

    const set =
      input.kind === 'withdrawn'
        ? { withdrawnOn: input.on, withdrawalReason: input.reason }
        : input.kind === 'lost-to-follow-up'
          ? { lostToFollowUpOn: input.on, lostToFollowUpReason: input.reason }
          : { discontinuedOn: input.on, discontinuedReason: input.reason };
    await transaction
      .update(trialEnrolments)
      .set(set)
      .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.patientId, patient.id)));
    // Only the intervention changed the programme, and only a programme still set by it is given back:
    // a change someone made since is theirs to keep.
    const restore = enrolment.arm === 'intervention' && input.kind !== 'lost-to-follow-up' && patient.programme === interventionProgramme;
    if (restore)
      await transaction.update(patients).set({ messagingProgramme: enrolment.previousProgramme }).where(eq(patients.id, patient.id));
    await recordAuditEvent(transaction, {
      action: auditAction,
      outcome: 'success',
      actorUserId: actor.id,
      ...context,
      details: { ...details, on: input.on, programme: restore ? { from: interventionProgramme, to: enrolment.previousProgramme } : null },
    });
    return null;
  });
  if (outcome !== null) return refuse({ database, action: auditAction, actor, context, details, error: outcome });
  return { patientId: input.patientId, kind: input.kind, on: input.on };
}
