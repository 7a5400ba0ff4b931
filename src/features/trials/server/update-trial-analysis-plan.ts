import 'server-only';
/**
 * Replaces a trial's analysis plan and its SHA-256 (admins), until the first enrolment: after that the plan
 * is frozen. The use case checks and writes holding the trial's enrolment lock, so an enrolment in progress
 * is waited for and then seen; the database trigger of migration 0013 refuses any other path (its EXISTS
 * cannot see an uncommitted enrolment, hence the lock), and gets the same message.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { trialEnrolments, trials } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import { updateTrialAnalysisPlanSchema } from '../schemas';
import { notAllowedToManageMessage } from './create-trial';
import {
  auditContextOf,
  parseAudited,
  findTrial,
  lockTrialEnrolment,
  refuse,
  sha256Hex,
  type TrialActor,
  unknownTrialMessage,
} from './trial-records';

const auditAction = 'trial.analysis-plan.update';
export const analysisPlanFrozenMessage =
  'analysisPlan: the analysis plan is frozen because enrolment has started; it can no longer be changed.';

/** True for the trigger's refusal (check_violation naming the frozen plan), however the driver wraps it. */
export function isFrozenPlanError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    if (code === '23514' && /analysis plan .* is frozen/.test(current.message)) return true;
  }
  return false;
}

export async function updateTrialAnalysisPlan(options: {
  database: Database;
  actor: TrialActor | null;
  input: unknown;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<{ trialId: string; analysisPlanSha256: string }> {
  const { database } = options;
  const context = auditContextOf(options);
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:manage',
    message: notAllowedToManageMessage,
    audit: { database, action: auditAction, ...context },
  });
  const input = await parseAudited({
    schema: updateTrialAnalysisPlanSchema,
    input: options.input,
    label: 'The analysis plan',
    database,
    action: auditAction,
    actor,
    context,
  });
  const frozen = new AppError('conflict', analysisPlanFrozenMessage, {
    fieldErrors: { analysisPlan: 'Frozen: enrolment has started.' },
  });
  const refusal = (error: AppError) =>
    refuse({ database, action: auditAction, actor, context, details: { trialId: input.trialId }, error });
  const analysisPlanSha256 = sha256Hex(input.analysisPlan);
  // Under the trial's enrolment lock: an enrolment in progress (not yet committed, so invisible to the check
  // and to the trigger) finishes first, and the check then sees it; an enrolment that starts later waits for
  // the new plan. Refusals are decided inside and audited after the transaction rolls back.
  let outcome: AppError | null;
  try {
    outcome = await database.transaction(async (transaction) => {
      await lockTrialEnrolment(transaction, input.trialId);
      if ((await findTrial(transaction, input.trialId)) === null) return new AppError('not_found', unknownTrialMessage);
      const [enrolment] = await transaction
        .select({ patientId: trialEnrolments.patientId })
        .from(trialEnrolments)
        .where(eq(trialEnrolments.trialId, input.trialId))
        .limit(1);
      if (enrolment !== undefined) return frozen;
      await transaction.update(trials).set({ analysisPlan: input.analysisPlan, analysisPlanSha256 }).where(eq(trials.id, input.trialId));
      await recordAuditEvent(transaction, {
        action: auditAction,
        outcome: 'success',
        actorUserId: actor.id,
        ...context,
        details: { trialId: input.trialId, analysisPlanSha256 },
      });
      return null;
    });
  } catch (error) {
    // An enrolment written without the lock (a script) still meets the trigger.
    if (isFrozenPlanError(error)) return refusal(frozen);
    throw error;
  }
  if (outcome !== null) return refusal(outcome);
  return { trialId: input.trialId, analysisPlanSha256 };
}
