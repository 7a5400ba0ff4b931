import 'server-only';
/**
 * The refresh half of the stale-day summaries (decisions 045 and 049): triggers mark the UTC days a write may have
 * changed in a marker table, and a refresh takes them in one statement and recomputes those days whole. A write
 * committed after the take leaves its day marked for the next refresh, so none is lost.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';

type StaleDayTable = 'message_summary_stale_days' | 'message_fact_stale_days';
type Executor = Pick<Database, 'execute'>;

/** One indexed probe: most reads find nothing stale and open no transaction. */
export async function hasStaleDays(database: Executor, table: StaleDayTable): Promise<boolean> {
  const pending = (await database.execute(sql`select 1 from ${sql.raw(table)} limit 1`)) as unknown as { rows: unknown[] };
  return pending.rows.length > 0;
}

/** The days taken, and the window of messages recomputing them reads; null when another refresh took them all. */
export type StaleDays = {
  days: number[];
  /** `day = any(stale)`: the days to delete and rewrite. */
  stale: SQL;
  /** The stale days and the day after each: the reply rules look up to a day past a message. */
  windowDays: number[];
  /** ISO bounds of the window, for an index range on sent_at. */
  from: string;
  to: string;
};

/** Takes (deletes and returns) the marked days inside the caller's transaction, with the refresh's settings. */
export async function takeStaleDays(transaction: Executor, table: StaleDayTable): Promise<StaleDays | null> {
  const taken = (await transaction.execute(sql`delete from ${sql.raw(table)} returning day`)) as unknown as {
    rows: { day: number }[];
  };
  const days = taken.rows.map((row) => Number(row.day));
  if (days.length === 0) return null;
  await transaction.execute(sql`set local work_mem = '32MB'`);
  await transaction.execute(sql`set local jit = off`);
  return {
    days,
    stale: sql`${sql.param(days)}::int[]`,
    windowDays: [...new Set(days.flatMap((day) => [day, day + 1]))],
    from: new Date(Math.min(...days) * 86_400_000).toISOString(),
    to: new Date((Math.max(...days) + 2) * 86_400_000).toISOString(),
  };
}
