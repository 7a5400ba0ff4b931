import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { markReplyReadSchema } from '../schemas';
import { authoriseReplyReader } from './authorise-reply-reader';

/**
 * A clinician (of the patient's organisation) or an admin marks a reply read: reviewed_at/by are set once
 * (marking it again keeps the first reader) and the action is audited. An unknown id and a reply the actor
 * may not read get the same 404, so no one learns which ids exist; only the audit log tells them apart
 * (patientId null for an unknown id).
 */
export async function markReplyRead(options: {
  database: Database;
  actor: SessionUser;
  input: unknown;
  now: Date;
  request?: Partial<RequestContext>;
}): Promise<{ messageId: string; reviewedAt: string }> {
  const { database, actor } = options;
  const { messageId } = parseInput(markReplyReadSchema, options.input, { label: 'The reply to mark as read' });
  const [message] = await database
    .select({ patientId: messages.patientId, reviewedAt: messages.reviewedAt })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.direction, 'inbound')));
  const refusal = new AppError('not_found', 'messageId: there is no such reply among your patients’ replies.');
  await authoriseReplyReader({
    database,
    actor,
    // Not looked up when the reply was not found (patientFound false).
    patientId: message?.patientId ?? '',
    patientFound: message !== undefined,
    action: 'message-replies.mark-read',
    refusal,
    details: message === undefined ? { messageId, patientId: null } : { messageId },
    request: options.request,
  });
  // authoriseReplyReader has thrown `refusal` already; this tells TypeScript.
  if (message === undefined) throw refusal;
  const [updated] = await database
    .update(messages)
    .set({ reviewedAt: options.now, reviewedBy: actor.id })
    .where(and(eq(messages.id, messageId), isNull(messages.reviewedAt)))
    .returning({ reviewedAt: messages.reviewedAt });
  const reviewedAt = updated?.reviewedAt ?? message.reviewedAt ?? options.now;
  await recordAuditEvent(database, {
    action: 'message-replies.mark-read',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { messageId, patientId: message.patientId, alreadyRead: updated === undefined },
  });
  return { messageId, reviewedAt: reviewedAt.toISOString() };
}
