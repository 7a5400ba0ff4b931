import 'server-only';
/**
 * Creates a trial (admins): its id, name, start, target and the analysis plan with its SHA-256. The
 * randomisation seed and block sizes come from the database's defaults (a random seed, blocks of 4 and 6)
 * and are never shown. Follow-up is the protocol's 12 weeks.
 */
import type { Database } from '@/db/client';
import { trials } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import { trialFollowUpWeeks } from '../protocol';
import { createTrialSchema } from '../schemas';
import { auditContextOf, parseAudited, refuse, sha256Hex, type TrialActor } from './trial-records';

const auditAction = 'trial.create';
export const notAllowedToManageMessage = 'Only admins may create trials and change their analysis plans.';

export async function createTrial(options: {
  database: Database;
  actor: TrialActor | null;
  input: unknown;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<{ id: string; analysisPlanSha256: string }> {
  const { database } = options;
  const context = auditContextOf(options);
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:manage',
    message: notAllowedToManageMessage,
    audit: { database, action: auditAction, ...context },
  });
  const input = await parseAudited({
    schema: createTrialSchema,
    input: options.input,
    label: 'The new trial',
    database,
    action: auditAction,
    actor,
    context,
  });
  const analysisPlanSha256 = sha256Hex(input.analysisPlan);
  const inserted = await database
    .insert(trials)
    .values({
      id: input.id,
      name: input.name,
      startDate: input.startDate,
      weeks: trialFollowUpWeeks,
      analysisPlan: input.analysisPlan,
      analysisPlanSha256,
      targetEnrolment: input.targetEnrolment,
      recruitmentClosedOn: input.recruitmentClosedOn ?? null,
      createdBy: actor.id,
    })
    .onConflictDoNothing()
    .returning({ id: trials.id });
  if (inserted.length === 0)
    await refuse({
      database,
      action: auditAction,
      actor,
      context,
      details: { trialId: input.id },
      error: new AppError('conflict', 'id: a trial with this id already exists.', {
        fieldErrors: { id: 'A trial with this id already exists.' },
      }),
    });
  await recordAuditEvent(database, {
    action: auditAction,
    outcome: 'success',
    actorUserId: actor.id,
    ...context,
    details: { trialId: input.id, analysisPlanSha256, targetEnrolment: input.targetEnrolment },
  });
  return { id: input.id, analysisPlanSha256 };
}
