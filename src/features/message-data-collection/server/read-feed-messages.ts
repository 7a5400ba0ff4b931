import 'server-only';
import { and, asc, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';
import type { InboundReading } from '@/lib/domain/message-records';
import { replyIntentOf } from '../reply-intent';
import type { LiveFeedItem } from '../schemas';

const columns = {
  id: messages.id,
  sentAt: messages.sentAt,
  channel: messages.channel,
  direction: messages.direction,
  category: messages.category,
  templateId: messages.templateId,
  status: messages.status,
  // Read only to classify a demo reply here; neither the text nor the reading leaves this module.
  replyText: messages.replyText,
  inboundReading: messages.inboundReading,
  pseudonym: patients.pseudonym,
};

type Row = {
  id: string;
  sentAt: Date;
  channel: string;
  direction: string;
  category: string | null;
  templateId: string | null;
  status: string;
  replyText: string | null;
  inboundReading: InboundReading | null;
  pseudonym: string;
};

function toItem(row: Row, withPseudonym: boolean): LiveFeedItem {
  return {
    id: row.id,
    sentAt: row.sentAt.toISOString(),
    channel: row.channel,
    direction: row.direction === 'inbound' ? 'inbound' : 'outbound',
    category: row.category,
    templateId: row.templateId,
    status: row.status,
    replyIntent: replyIntentOf({ direction: row.direction, inboundReading: row.inboundReading, replyText: row.replyText }),
    pseudonym: withPseudonym ? row.pseudonym : null,
  };
}

/** The latest `limit` messages of the selection sent up to `until`, newest first. */
export async function readLatestFeedMessages(options: {
  database: Database;
  where: SQL;
  until: Date;
  limit: number;
  withPseudonym: boolean;
}): Promise<LiveFeedItem[]> {
  const rows = await options.database
    .select(columns)
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(and(options.where, lte(messages.sentAt, options.until)))
    .orderBy(desc(messages.sentAt), desc(messages.id))
    .limit(options.limit);
  return rows.map((row) => toItem(row, options.withPseudonym));
}

/** Messages of the selection sent in [since, until], oldest first, at most `limit`. */
export async function readFeedMessagesSince(options: {
  database: Database;
  where: SQL;
  since: Date;
  until: Date;
  limit: number;
  withPseudonym: boolean;
}): Promise<LiveFeedItem[]> {
  const rows = await options.database
    .select(columns)
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(and(options.where, gte(messages.sentAt, options.since), lte(messages.sentAt, options.until)))
    .orderBy(asc(messages.sentAt), asc(messages.id))
    .limit(options.limit);
  return rows.map((row) => toItem(row, options.withPseudonym));
}
