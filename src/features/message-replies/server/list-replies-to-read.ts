import 'server-only';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { doseEvents, messages } from '@/db/schema';
import { mediaReceivedBody } from '@/features/messaging-webhooks';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { replyDoseSources, type ReplyToReadDto } from '../schemas';
import { authoriseReplyReader } from './authorise-reply-reader';

const defaultLimit = 50;

/**
 * A patient's replies a clinician should read, newest first, not yet marked read: what the engine did not
 * recognise, media, and dose answers that answered no message we sent (so no dose was recorded). Keywords,
 * "not yet" and recorded dose answers are data already and are not listed.
 */
export async function listRepliesToRead(options: {
  database: Database;
  actor: SessionUser;
  patientId: string;
  limit?: number;
  request?: Partial<RequestContext>;
}): Promise<ReplyToReadDto[]> {
  const { database, patientId } = options;
  await authoriseReplyReader({ ...options, action: 'message-replies.list' });
  const intent = sql<string | null>`${messages.inboundReading} -> 'interpretation' -> 'reply' ->> 'intent'`;
  const interpretationKind = sql<string | null>`${messages.inboundReading} -> 'interpretation' ->> 'kind'`;
  const recorded = database
    .select({ one: sql`1` })
    .from(doseEvents)
    .where(
      and(
        eq(doseEvents.patientId, messages.patientId),
        inArray(doseEvents.source, Object.values(replyDoseSources)),
        eq(doseEvents.sourceRecordId, sql`coalesce(${messages.providerMessageId}, ${messages.id}::text)`),
      ),
    );
  const rows = await database
    .select({ id: messages.id, channel: messages.channel, sentAt: messages.sentAt, body: messages.body, intent, interpretationKind })
    .from(messages)
    .where(
      and(
        eq(messages.patientId, patientId),
        eq(messages.direction, 'inbound'),
        isNull(messages.reviewedAt),
        sql`(${interpretationKind} is null or ${intent} = 'unrecognised' or (${intent} in ('taken', 'missed', 'skipped') and not exists (${recorded})))`,
      ),
    )
    .orderBy(desc(messages.sentAt))
    .limit(options.limit ?? defaultLimit);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    receivedAt: row.sentAt.toISOString(),
    text: row.body ?? mediaReceivedBody,
    reason: row.interpretationKind === null ? 'media' : row.intent === 'unrecognised' ? 'unrecognised' : 'no-message-answered',
  }));
}
