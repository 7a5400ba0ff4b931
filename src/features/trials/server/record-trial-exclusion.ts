import 'server-only';
/**
 * Records that an assessed patient was not enrolled (CONSORT "excluded"): not eligible, declined, or another
 * reason with the clinician's words. Assessing again replaces an earlier exclusion; an enrolled patient
 * cannot be excluded (they leave by an exit instead), even by a clinician whose page still showed them as a
 * candidate while a colleague enrolled them: the check and the write hold the patient's row lock, as enrolment
 * does. The detail is stored, never audited: it may name them.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { trialEnrolments, trialScreenings } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { TrialExclusionReason } from '../contracts';
import { isoDayOf } from '../protocol';
import { recordTrialExclusionSchema } from '../schemas';
import { notAllowedToAssessMessage } from './list-trial-candidates';
import { recruitmentClosedMessage } from './enrol-trial-participant';
import {
  auditContextOf,
  parseAudited,
  checkSystemCriteria,
  findPatientInScope,
  findTrial,
  readTrialState,
  refuse,
  type TrialActor,
  unknownPatientMessage,
  unknownTrialMessage,
} from './trial-records';

const auditAction = 'trial.exclude';
export const enrolledPatientMessage = 'patientId: this patient is enrolled; record a withdrawal or loss to follow-up instead.';

export async function recordTrialExclusion(options: {
  database: Database;
  actor: TrialActor | null;
  input: unknown;
  now: Date;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<{ patientId: string; reason: TrialExclusionReason; assessedOn: string }> {
  const { database, now } = options;
  const context = auditContextOf(options);
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:enrol',
    message: notAllowedToAssessMessage,
    audit: { database, action: auditAction, ...context },
  });
  const input = await parseAudited({
    schema: recordTrialExclusionSchema,
    input: options.input,
    label: 'The exclusion',
    database,
    action: auditAction,
    actor,
    context,
  });
  const today = isoDayOf(now);
  const details = { trialId: input.trialId, patientId: input.patientId };
  // One transaction holding the patient's row lock, the lock enrolment takes (decision 028, addendum
  // 2026-11-29): an enrolment of the same patient either committed before we look, or waits for our commit
  // and then replaces the exclusion. Refusals are decided inside and audited after it rolls back.
  const outcome = await database.transaction(async (transaction): Promise<{ patientId: string } | AppError> => {
    const trial = await findTrial(transaction, input.trialId);
    if (trial === null) return new AppError('not_found', unknownTrialMessage);
    if (!(await readTrialState(transaction, trial, today)).recruitmentOpen) return new AppError('conflict', recruitmentClosedMessage);
    const patient = await findPatientInScope({ database: transaction, actor, patientId: input.patientId, lock: true });
    if (patient === null) return new AppError('not_found', unknownPatientMessage);
    const [enrolled] = await transaction
      .select({ arm: trialEnrolments.arm })
      .from(trialEnrolments)
      .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.patientId, patient.id)));
    if (enrolled !== undefined) return new AppError('conflict', enrolledPatientMessage);
    const checks = (await checkSystemCriteria({ database: transaction, trialId: trial.id, patientIds: [patient.id], now, today })).get(
      patient.id,
    )!;
    const values = {
      assessedOn: today,
      assessedBy: actor.id,
      outcome: 'excluded' as const,
      exclusionReason: input.reason,
      exclusionDetail: input.detail === undefined || input.detail === '' ? null : input.detail,
      eligibility: checks,
    };
    // The backstop: a screening that says 'enrolled' is never turned into an exclusion, whatever path wrote it.
    const written = await transaction
      .insert(trialScreenings)
      .values({ trialId: trial.id, patientId: patient.id, ...values })
      .onConflictDoUpdate({
        target: [trialScreenings.trialId, trialScreenings.patientId],
        set: values,
        setWhere: ne(trialScreenings.outcome, 'enrolled'),
      })
      .returning({ patientId: trialScreenings.patientId });
    if (written.length === 0) return new AppError('conflict', enrolledPatientMessage);
    await recordAuditEvent(transaction, {
      action: auditAction,
      outcome: 'success',
      actorUserId: actor.id,
      ...context,
      details: { ...details, reason: input.reason },
    });
    return { patientId: patient.id };
  });
  if (outcome instanceof AppError) return refuse({ database, action: auditAction, actor, context, details, error: outcome });
  return { patientId: outcome.patientId, reason: input.reason, assessedOn: today };
}
