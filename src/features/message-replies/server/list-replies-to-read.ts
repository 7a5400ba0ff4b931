import 'server-only';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client';
import { doseEvents, messages, surveyMessageChunks } from '@/db/schema';
import { mediaReceivedBody } from '@/features/messaging-webhooks';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { replyDoseSources, type ReplyToReadDto } from '../schemas';
import { authoriseReplyReader } from './authorise-reply-reader';

const defaultLimit = 50;

/**
 * A patient's replies a clinician should read, newest first, not yet marked read: what the engine did not
 * recognise, media, dose answers that answered no message we sent (so no dose was recorded), and a survey
 * reply still unreadable after its clarification (decision 051). Keywords,
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
  // Survey replies (decision 051): one that answered, or got the clarification, is data already; one kept after
  // the clarification is listed whatever the engine read in it ("1" reads as a dose answer by SMS).
  const surveyReply = (column: AnyPgColumn) =>
    database
      .select({ one: sql`1` })
      .from(surveyMessageChunks)
      .where(eq(column, messages.id));
  const held = sql<boolean>`exists (${surveyReply(surveyMessageChunks.heldReplyId)})`;
  const rows = await database
    .select({ id: messages.id, channel: messages.channel, sentAt: messages.sentAt, body: messages.body, intent, interpretationKind, held })
    .from(messages)
    .where(
      and(
        eq(messages.patientId, patientId),
        eq(messages.direction, 'inbound'),
        isNull(messages.reviewedAt),
        sql`(${held} or ((${interpretationKind} is null or ${intent} = 'unrecognised' or (${intent} in ('taken', 'missed', 'skipped') and not exists (${recorded}))) and not exists (${surveyReply(surveyMessageChunks.answeredReplyId)}) and not exists (${surveyReply(surveyMessageChunks.clarifiedReplyId)})))`,
      ),
    )
    .orderBy(desc(messages.sentAt))
    .limit(options.limit ?? defaultLimit);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    receivedAt: row.sentAt.toISOString(),
    text: row.body ?? mediaReceivedBody,
    reason: row.held
      ? 'survey-unreadable'
      : row.interpretationKind === null
        ? 'media'
        : row.intent === 'unrecognised'
          ? 'unrecognised'
          : 'no-message-answered',
  }));
}
