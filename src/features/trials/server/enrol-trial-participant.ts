import 'server-only';
/**
 * Enrols and randomises one patient (a clinician of the patient's organisation, or an admin). The clinician's
 * checklist and the recorded consent are required by the schema; the system's criteria are checked again
 * here, whatever the page showed. In one transaction, holding the trial's advisory lock so enrolments take
 * turns: the screening row ('enrolled'), the next position of the patient's stratum, the arm at that
 * position of the concealed sequence, the enrolment row, and for the intervention arm the patient's
 * messaging programme set to 'personalised' (the previous one kept for a withdrawal to restore). The arm is
 * returned only once all of it is saved.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, trialEnrolments, trialScreenings } from '@/db/schema';
import { allocateAtPosition } from '@/engine/trial/allocation-sequence';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { TrialArm } from '../contracts';
import { eligibilityCriteria, followUpEndsOn, interventionProgramme, isoDayOf, unknownStratum } from '../protocol';
import { enrolTrialParticipantSchema } from '../schemas';
import { notAllowedToAssessMessage } from './list-trial-candidates';
import {
  auditContextOf,
  parseAudited,
  checkSystemCriteria,
  findPatientInScope,
  findTrial,
  lockTrialEnrolment,
  readTrialState,
  refuse,
  type TrialActor,
  unknownPatientMessage,
  unknownTrialMessage,
  unmetCriteria,
} from './trial-records';

const auditAction = 'trial.enrol';
export const recruitmentClosedMessage = 'trialId: recruitment to this trial is closed.';

export type TrialEnrolmentResult = { arm: TrialArm; enrolledOn: string; followUpEndsOn: string };

export async function enrolTrialParticipant(options: {
  database: Database;
  actor: TrialActor | null;
  input: unknown;
  now: Date;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<TrialEnrolmentResult> {
  const { database, now } = options;
  const context = auditContextOf(options);
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:enrol',
    message: notAllowedToAssessMessage,
    audit: { database, action: auditAction, ...context },
  });
  const input = await parseAudited({
    schema: enrolTrialParticipantSchema,
    input: options.input,
    label: 'The enrolment',
    database,
    action: auditAction,
    actor,
    context,
  });
  const today = isoDayOf(now);
  const details = { trialId: input.trialId, patientId: input.patientId };

  // Refusals are decided inside the transaction but audited after it rolls back, so the 'denied' row stays.
  const outcome = await database.transaction(async (transaction): Promise<TrialEnrolmentResult | AppError> => {
    await lockTrialEnrolment(transaction, input.trialId);
    const trial = await findTrial(transaction, input.trialId);
    if (trial === null) return new AppError('not_found', unknownTrialMessage);
    const state = await readTrialState(transaction, trial, today);
    if (!state.recruitmentOpen) return new AppError('conflict', recruitmentClosedMessage);
    if (trial.startDate > today) return new AppError('conflict', `trialId: recruitment opens on ${trial.startDate}.`);
    const patient = await findPatientInScope({ database: transaction, actor, patientId: input.patientId, lock: true });
    if (patient === null) return new AppError('not_found', unknownPatientMessage);
    const [already] = await transaction
      .select({ arm: trialEnrolments.arm })
      .from(trialEnrolments)
      .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.patientId, patient.id)));
    if (already !== undefined) return new AppError('conflict', 'patientId: this patient is already enrolled in the trial.');
    const checks = (await checkSystemCriteria({ database: transaction, trialId: trial.id, patientIds: [patient.id], now, today })).get(
      patient.id,
    )!;
    const unmet = unmetCriteria(checks);
    if (unmet.length > 0) {
      const texts = eligibilityCriteria
        .filter((criterion) => (unmet as string[]).includes(criterion.id))
        .map((criterion) => criterion.text);
      return new AppError('conflict', `patientId: the patient does not meet the eligibility criteria: ${texts.join('; ')}.`);
    }

    const stratum = patient.persona ?? unknownStratum;
    const [{ position } = { position: 0 }] = await transaction
      .select({ position: sql<number>`count(*)::int` })
      .from(trialEnrolments)
      .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.stratum, stratum)));
    const { arm, block } = allocateAtPosition({ seed: trial.randomisationSeed, stratum, blockSizes: trial.blockSizes, position });
    const eligibility = { ...checks, ...input.clinicianChecks };
    await transaction
      .insert(trialScreenings)
      .values({ trialId: trial.id, patientId: patient.id, assessedOn: today, assessedBy: actor.id, outcome: 'enrolled', eligibility })
      .onConflictDoUpdate({
        target: [trialScreenings.trialId, trialScreenings.patientId],
        set: { assessedOn: today, assessedBy: actor.id, outcome: 'enrolled', exclusionReason: null, exclusionDetail: null, eligibility },
      });
    await transaction.insert(trialEnrolments).values({
      trialId: trial.id,
      patientId: patient.id,
      arm,
      stratum,
      block,
      stratumPosition: position,
      enrolledOn: today,
      enrolledBy: actor.id,
      consentRecordedAt: now,
      previousProgramme: patient.programme,
    });
    // Set here rather than through the messaging loop's setMessagingProgramme: it must commit or roll back
    // with the enrolment, and the trial's own audit row records the change.
    if (arm === 'intervention')
      await transaction.update(patients).set({ messagingProgramme: interventionProgramme }).where(eq(patients.id, patient.id));
    await recordAuditEvent(transaction, {
      action: auditAction,
      outcome: 'success',
      actorUserId: actor.id,
      ...context,
      details: {
        ...details,
        arm,
        programme: arm === 'intervention' ? { from: patient.programme, to: interventionProgramme } : null,
      },
    });
    return { arm, enrolledOn: today, followUpEndsOn: followUpEndsOn(today, trial.weeks) };
  });
  if (outcome instanceof AppError) return refuse({ database, action: auditAction, actor, context, details, error: outcome });
  return outcome;
}
