import 'server-only';
/**
 * Records that an assessed patient was not enrolled (CONSORT "excluded"): not eligible, declined, or another
 * reason with the clinician's words. Assessing again replaces an earlier exclusion; an enrolled patient
 * cannot be excluded (they leave by an exit instead). The detail is stored, never audited: it may name them.
 */
import { and, eq } from 'drizzle-orm';
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
  const refusal = (error: AppError) => refuse({ database, action: auditAction, actor, context, details, error });

  const trial = await findTrial(database, input.trialId);
  if (trial === null) return refusal(new AppError('not_found', unknownTrialMessage));
  if (!(await readTrialState(database, trial, today)).recruitmentOpen) return refusal(new AppError('conflict', recruitmentClosedMessage));
  const patient = await findPatientInScope({ database, actor, patientId: input.patientId });
  if (patient === null) return refusal(new AppError('not_found', unknownPatientMessage));
  const [enrolled] = await database
    .select({ arm: trialEnrolments.arm })
    .from(trialEnrolments)
    .where(and(eq(trialEnrolments.trialId, trial.id), eq(trialEnrolments.patientId, patient.id)));
  if (enrolled !== undefined)
    return refusal(new AppError('conflict', 'patientId: this patient is enrolled; record a withdrawal or loss to follow-up instead.'));
  const checks = (await checkSystemCriteria({ database, trialId: trial.id, patientIds: [patient.id], now, today })).get(patient.id)!;
  const values = {
    assessedOn: today,
    assessedBy: actor.id,
    outcome: 'excluded' as const,
    exclusionReason: input.reason,
    exclusionDetail: input.detail === undefined || input.detail === '' ? null : input.detail,
    eligibility: checks,
  };
  await database.transaction(async (transaction) => {
    await transaction
      .insert(trialScreenings)
      .values({ trialId: trial.id, patientId: patient.id, ...values })
      .onConflictDoUpdate({ target: [trialScreenings.trialId, trialScreenings.patientId], set: values });
    await recordAuditEvent(transaction, {
      action: auditAction,
      outcome: 'success',
      actorUserId: actor.id,
      ...context,
      details: { ...details, reason: input.reason },
    });
  });
  return { patientId: patient.id, reason: input.reason, assessedOn: today };
}
