import 'server-only';
import { and, eq, exists, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';

/** A category as the tables name it: inbound rows of live messages carry none. */
export const noCategory = 'none';

/** The UTC day number of a message (days since 1970-01-01), cheaper to group by than a formatted date. */
export const messageDay = sql`floor(extract(epoch from ${messages.sentAt}) / 86400)::int`;

/** The day number of the Monday of a day's ISO week (day 4, 1970-01-05, was a Monday). */
export function weekOfDay(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

// What a message counts as, over `messages` (also the daily summaries' rules, summarise-message-days.ts).
// The final status settles most rows without reading the history (a later step outranks an earlier one).
export const isDelivered = sql`case when ${messages.status} in ('delivered', 'read') then true
  else ${messages.statusHistory} @> '[{"status":"delivered"}]'::jsonb or ${messages.statusHistory} @> '[{"status":"read"}]'::jsonb end`;
export const isRead = sql`case when ${messages.status} = 'read' then true when ${messages.status} in ('delivered', 'sent') then false
  else ${messages.statusHistory} @> '[{"status":"read"}]'::jsonb end`;
export const isFailed = sql`${messages.status} in ('failed', 'undelivered')`;
export const isLiveStop = sql`${messages.direction} = 'inbound' and ${messages.inboundReading}->'interpretation'->>'kind' = 'keyword'
  and ${messages.inboundReading}->'interpretation'->'keyword'->>'action' = 'opt-out'`;
/** Inbound messages without the engine's reading (demo replies) keep their text, for the keyword matcher. */
export const demoReplyText = sql`case when ${messages.direction} = 'inbound' and ${messages.inboundReading} is null then ${messages.replyText} end`;

export type MessageGroupCount = {
  direction: 'outbound' | 'inbound';
  day: number;
  channel: string;
  category: string;
  /** Inbound messages without the engine's reading (demo replies): their text, for the keyword matcher. */
  replyText: string | null;
  messages: number;
  delivered: number;
  read: number;
  failed: number;
  /** Live inbound messages the engine read as an opt-out keyword. */
  liveStops: number;
};

/**
 * The selection's messages counted per direction, UTC day, channel and category (and for demo replies their
 * text): one hashed scan from which every volume, the delivered, read and failed counts and the STOP replies
 * are summed. Delivered: a delivered or read step (or that status); read: a read step; failed: final status
 * failed or undelivered.
 */
export async function countMessageGroups(options: { database: Database; where: SQL }): Promise<MessageGroupCount[]> {
  const { database, where } = options;
  const category = sql`coalesce(${messages.category}, ${sql.raw(`'${noCategory}'`)})`;
  const replyText = demoReplyText;
  const rows = await database
    .select({
      direction: messages.direction,
      day: sql<number>`${messageDay}`,
      channel: messages.channel,
      category: sql<string>`${category}`,
      replyText: sql<string | null>`${replyText}`,
      messages: sql<number>`count(*)::int`,
      delivered: sql<number>`count(*) filter (where ${isDelivered})::int`,
      read: sql<number>`count(*) filter (where ${isRead})::int`,
      failed: sql<number>`count(*) filter (where ${isFailed})::int`,
      liveStops: sql<number>`count(*) filter (where ${isLiveStop})::int`,
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .groupBy(messages.direction, messageDay, messages.channel, category, replyText);
  return rows.map((row) => ({
    direction: row.direction,
    day: Number(row.day),
    channel: row.channel,
    category: row.category,
    replyText: row.replyText,
    messages: Number(row.messages),
    delivered: Number(row.delivered),
    read: Number(row.read),
    failed: Number(row.failed),
    liveStops: Number(row.liveStops),
  }));
}

/**
 * The patients the selection's messages concern, and how many of them are synthetic: a probe of the
 * (patient, time) index per patient rather than a distinct count over the messages.
 */
export async function countSelectionPatients(options: {
  database: Database;
  where: SQL;
}): Promise<{ patients: number; synthetic: number }> {
  const { database, where } = options;
  const [row] = await database
    .select({ patients: sql<number>`count(*)::int`, synthetic: sql<number>`count(*) filter (where ${patients.synthetic})::int` })
    .from(patients)
    .where(
      exists(
        database
          .select({ one: sql`1` })
          .from(messages)
          .where(and(eq(messages.patientId, patients.id), where)),
      ),
    );
  return { patients: Number(row?.patients ?? 0), synthetic: Number(row?.synthetic ?? 0) };
}

export type GroupPatientLevel = 'day-channel' | 'week-channel' | 'week-category' | 'channel' | 'category' | 'direction';
export type GroupPatientCount = { level: GroupPatientLevel; direction: string; key: number | null; group: string | null; patients: number };

// grouping(week, channel, category): a bit per column left out of the grouping set (direction is in all).
const levelOfMask: Record<number, GroupPatientLevel> = {
  1: 'week-channel',
  2: 'week-category',
  5: 'channel',
  6: 'category',
  7: 'direction',
};

/**
 * Distinct patients per group the page shows, for suppression: only a viewer whose aggregates are suppressed
 * needs them. Per day and channel by hashing distinct (patient, direction, day, channel); the other groups from
 * the messages reduced to distinct (patient, direction, ISO week, channel, category), a few times fewer rows
 * to sort than the messages.
 */
export async function countGroupPatients(options: { database: Database; where: SQL }): Promise<GroupPatientCount[]> {
  const { database, where } = options;
  const category = sql`coalesce(${messages.category}, ${sql.raw(`'${noCategory}'`)})`;
  const daily = database
    .selectDistinct({
      patientId: sql<string>`${messages.patientId}`.as('patient_id'),
      direction: sql<string>`${messages.direction}`.as('direction'),
      day: sql<number>`${messageDay}`.as('day'),
      channel: sql<string>`${messages.channel}`.as('channel'),
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .as('daily');
  const weekly = database
    .selectDistinct({
      patientId: sql<string>`${messages.patientId}`.as('patient_id'),
      direction: sql<string>`${messages.direction}`.as('direction'),
      week: sql<number>`(${messageDay} - ((${messageDay} + 3) % 7))`.as('week'),
      channel: sql<string>`${messages.channel}`.as('channel'),
      category: sql<string>`${category}`.as('category'),
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .as('weekly');
  const [dayRows, weekRows] = await Promise.all([
    database
      .select({ direction: daily.direction, day: daily.day, channel: daily.channel, patients: sql<number>`count(*)::int` })
      .from(daily)
      .groupBy(daily.direction, daily.day, daily.channel),
    database
      .select({
        direction: weekly.direction,
        week: weekly.week,
        channel: weekly.channel,
        category: weekly.category,
        mask: sql<number>`grouping(${weekly.week}, ${weekly.channel}, ${weekly.category})::int`,
        patients: sql<number>`count(distinct ${weekly.patientId})::int`,
      })
      .from(weekly)
      .groupBy(
        sql`grouping sets ((${weekly.direction}, ${weekly.week}, ${weekly.channel}), (${weekly.direction}, ${weekly.week}, ${weekly.category}),
          (${weekly.direction}, ${weekly.channel}), (${weekly.direction}, ${weekly.category}), (${weekly.direction}))`,
      ),
  ]);
  return [
    ...dayRows.map((row) => ({
      level: 'day-channel' as const,
      direction: row.direction,
      key: Number(row.day),
      group: row.channel,
      patients: Number(row.patients),
    })),
    ...weekRows.map((row) => {
      const level = levelOfMask[Number(row.mask)];
      if (level === undefined) throw new Error(`unexpected grouping ${row.mask}`);
      const key = level === 'week-channel' || level === 'week-category' ? Number(row.week) : null;
      const group = level === 'week-channel' || level === 'channel' ? row.channel : level === 'direction' ? null : row.category;
      return { level, direction: row.direction, key, group, patients: Number(row.patients) };
    }),
  ];
}
