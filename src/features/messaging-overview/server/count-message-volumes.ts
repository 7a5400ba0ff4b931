import 'server-only';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';

export type VolumeLevel = 'day-channel' | 'week-channel' | 'week-category' | 'channel' | 'category' | 'direction' | 'all';

export type VolumeCount = {
  level: VolumeLevel;
  direction: 'outbound' | 'inbound' | null;
  key: string | null;
  group: string | null;
  messages: number;
  patients: number;
  syntheticPatients: number;
};

// grouping(day, week, channel, category, direction): a bit per column left out of the grouping set.
const levelOfMask: Record<number, VolumeLevel> = {
  10: 'day-channel',
  18: 'week-channel',
  20: 'week-category',
  26: 'channel',
  28: 'category',
  30: 'direction',
  31: 'all',
};

/** A category as the tables name it: inbound rows of live messages carry none. */
export const noCategory = 'none';

/**
 * Messages of the selection per UTC day and channel, per ISO week (Monday) by channel and by category, in
 * total by channel, by category and by direction, and overall, each with the distinct patients it concerns:
 * one scan with grouping sets, so the database does the counting.
 */
export async function countMessageVolumes(options: { database: Database; where: SQL }): Promise<VolumeCount[]> {
  const { database, where } = options;
  const day = sql`to_char(${messages.sentAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const week = sql`to_char(date_trunc('week', ${messages.sentAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  // Literals, not parameters: a parameter would make the grouped and the selected expression differ.
  const category = sql`coalesce(${messages.category}, ${sql.raw(`'${noCategory}'`)})`;
  const rows = await database
    .select({
      day: sql<string | null>`${day}`,
      week: sql<string | null>`${week}`,
      channel: messages.channel,
      category: sql<string | null>`${category}`,
      direction: messages.direction,
      mask: sql<number>`grouping(${day}, ${week}, ${messages.channel}, ${category}, ${messages.direction})::int`,
      messages: sql<number>`count(*)::int`,
      patients: sql<number>`count(distinct ${messages.patientId})::int`,
      syntheticPatients: sql<number>`count(distinct ${messages.patientId}) filter (where ${patients.synthetic})::int`,
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .groupBy(
      sql`grouping sets ((${messages.direction}, ${day}, ${messages.channel}), (${messages.direction}, ${week}, ${messages.channel}),
        (${messages.direction}, ${week}, ${category}), (${messages.direction}, ${messages.channel}), (${messages.direction}, ${category}),
        (${messages.direction}), ())`,
    );
  return rows.map((row) => {
    const level = levelOfMask[Number(row.mask)];
    if (level === undefined) throw new Error(`unexpected grouping ${row.mask}`);
    const key = level === 'day-channel' ? row.day : level === 'week-channel' || level === 'week-category' ? row.week : null;
    const group =
      level === 'day-channel' || level === 'week-channel' || level === 'channel'
        ? row.channel
        : level === 'week-category' || level === 'category'
          ? row.category
          : null;
    return {
      level,
      direction: level === 'all' ? null : row.direction,
      key,
      group,
      messages: Number(row.messages),
      patients: Number(row.patients),
      syntheticPatients: Number(row.syntheticPatients),
    };
  });
}
