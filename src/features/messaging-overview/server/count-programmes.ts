import 'server-only';
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, policyDecisions } from '@/db/schema';
import { MS_PER_DAY, utcDayNumber } from '@/engine/time/local-day';

export type ProgrammeCount = { programme: string | null; channel: string | null; level: number; patients: number };
export type PlannedSendCount = { day: string | null; sends: number; patients: number; next: string | null };

/** Days of planned sends the overview lists, today included. */
export const nextSendDays = 7;

/**
 * Patients of the selection per messaging programme and preferred channel (grouping sets: each pair, each
 * programme, all). Level 0: programme × channel; 1: programme; 3: all.
 */
export async function countProgrammes(options: { database: Database; patientWhere: SQL | undefined }): Promise<ProgrammeCount[]> {
  const { database } = options;
  const programme = sql`coalesce(${patients.messagingProgramme}, 'not-enrolled')`;
  const channel = sql`coalesce(${patients.preferredChannel}, 'none')`;
  const rows = await database
    .select({
      programme: sql<string | null>`${programme}`,
      channel: sql<string | null>`${channel}`,
      level: sql<number>`grouping(${programme}, ${channel})::int`,
      patients: sql<number>`count(*)::int`,
    })
    .from(patients)
    .where(options.patientWhere)
    .groupBy(sql`grouping sets ((${programme}, ${channel}), (${programme}), ())`);
  return rows.map((row) => ({ programme: row.programme, channel: row.channel, level: Number(row.level), patients: Number(row.patients) }));
}

/**
 * Sends the daily loop has planned (decisions with status planned, due from now) per UTC day over the next
 * seven days, with the earliest; a row with `day` null holds the whole week.
 */
export async function countPlannedSends(options: {
  database: Database;
  patientWhere: SQL | undefined;
  now: Date;
}): Promise<PlannedSendCount[]> {
  const { database, now } = options;
  const until = new Date((utcDayNumber(now) + nextSendDays) * MS_PER_DAY);
  const day = sql`to_char(${policyDecisions.scheduledFor} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await database
    .select({
      day: sql<string | null>`${day}`,
      level: sql<number>`grouping(${day})::int`,
      sends: sql<number>`count(*)::int`,
      patients: sql<number>`count(distinct ${policyDecisions.patientId})::int`,
      next: sql<string | null>`to_char(min(${policyDecisions.scheduledFor}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    })
    .from(policyDecisions)
    .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
    .where(
      and(
        options.patientWhere,
        eq(policyDecisions.status, 'planned'),
        gte(policyDecisions.scheduledFor, now),
        lt(policyDecisions.scheduledFor, until),
      ),
    )
    .groupBy(sql`grouping sets ((${day}), ())`);
  return rows.map((row) => ({
    day: Number(row.level) === 1 ? null : row.day,
    sends: Number(row.sends),
    patients: Number(row.patients),
    next: row.next,
  }));
}
