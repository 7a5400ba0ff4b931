import 'server-only';
/**
 * Which period a portal view shows (docs/decisions/060). Data on a new day move the as-of day and with it every
 * period, and the per-patient pre-aggregate (decision 050) holds a new period only once the refresh job has built
 * it. Computing a large scope's period per request until then took seconds at 100,000 patients, so a view of a
 * period not built yet whose scope is large shows the newest BUILT period of the same choice (the same last N
 * months, calendar year or from-date, cut at an earlier as-of day) and says so; the asked period is registered and
 * its refresh queued. A small scope (the demo data, tests) is still computed per request, exact and current.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dayNumberFromCivil, dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { type PeriodChoice, type ReportingPeriod, resolvePeriod } from '@/engine/aggregation/reporting-period';
import type { PortalProduct } from '../portal-tables';
import { levelKeyOf, loadCatalogue, periodKeyOf, registerViewedPeriod } from './portal-patient-summaries';

/**
 * A scope whose newest built period holds at least this many patients is shown from that period while the asked
 * one is built. Per request the engine took about 55 µs a patient under load at 100,000 patients (5.5 s), and a
 * view adds a fixed cost (dose slots, replies, look-ups): a one-product view of about 5,000 patients took 1.4–1.8 s
 * at load 7 (README, run G), so 10,000 would pass 2 s. Below 3,000 the exact current period stays near a second,
 * and the demo data (2,000 patients) stay exact and current.
 */
export const BUILT_PERIOD_MIN_PATIENTS = 3_000;

/** What a view shows instead of the asked period while that is built, for the page and the CSV to say so. */
export type PendingPeriod = {
  /** The period asked for (at the data's current as-of day), which the refresh is building. */
  asked: ReportingPeriod;
  /** The first day of data the shown figures do not include (the day after their as-of day). */
  newDataFrom: number;
  refresh: 'queued' | 'running';
};

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** Whether a choice falls back to the default at an as-of day (it lies wholly after the data). */
function fallsBack(choice: PeriodChoice, asOf: number): boolean {
  if (choice.kind === 'calendar-year') return dayNumberFromCivil(choice.year, 1, 1) > asOf;
  if (choice.kind === 'custom') return choice.from > asOf;
  return false;
}

/**
 * The period to show for `asked`: itself when it is built, the product set is not pre-aggregated, or the scope is
 * small; else the newest built period that the same choice gives at an earlier as-of day (falling back to the
 * default the same way), when its scope (the product set, in the region if one is chosen) holds at least
 * `minPatients` patients.
 */
export async function findServedPortalPeriod(options: {
  database: Database;
  asked: ReportingPeriod;
  chosen: readonly PortalProduct[];
  region: string | null;
  now: Date;
  minPatients?: number;
}): Promise<{ period: ReportingPeriod; pending: PendingPeriod | null }> {
  const { database, asked, now } = options;
  const current = { period: asked, pending: null };
  const levelKey = levelKeyOf(options.chosen, await loadCatalogue(database));
  if (levelKey === null) return current;
  const candidates = rowsOf<{ key: string; start: string; end: string; built: boolean }>(
    await database.execute(sql`select period_key as key, start::text as start, "end"::text as "end", built_at is not null as built
      from portal_summary_periods where period_key = ${periodKeyOf(asked)} or (built_at is not null and "end" < ${isoFromDayNumber(asked.end)}::date
        and (${levelKey} not like 'g:%' or ${levelKey} = any(group_levels)))
      order by "end" desc`),
  );
  if (candidates.some((row) => row.key === periodKeyOf(asked) && row.built)) return current;
  const askedFallsBack = fallsBack(asked.choice, asked.asOf);
  const match = candidates
    .filter((row) => row.built && row.key !== periodKeyOf(asked))
    .map((row) => ({ start: dayNumberFromIso(row.start), end: dayNumberFromIso(row.end) }))
    .map((row) => ({ row, period: resolvePeriod({ choice: asked.choice, asOf: row.end - 1, latestData: row.end - 1 }) }))
    .find(
      ({ row, period }) => period.start === row.start && period.end === row.end && fallsBack(asked.choice, period.asOf) === askedFallsBack,
    );
  if (match === undefined) return current;
  const inRegion = options.region === null ? sql`` : sql`and region = ${options.region}`;
  const [size] = rowsOf<{ patients: number | string | null }>(
    await database.execute(sql`select sum(n) as patients from portal_summary_cells
      where period_key = ${periodKeyOf(match.period)} and level_key = ${levelKey} and part = 'pdc' ${inRegion}`),
  );
  if (Number(size?.patients ?? 0) < (options.minPatients ?? BUILT_PERIOD_MIN_PATIENTS)) return current;
  const job = await registerViewedPeriod(database, asked, now);
  return { period: match.period, pending: { asked, newDataFrom: match.period.asOf + 1, refresh: job.status } };
}
