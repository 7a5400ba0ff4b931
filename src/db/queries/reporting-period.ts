import 'server-only';
/**
 * The reporting period, read once for every feature (shared read layer, docs/decisions/008): the rules are
 * the engine's (src/engine/aggregation/reporting-period.ts); this reads the data they apply to.
 * (Dispensings, not dose events: the dispensings table is small, and a maximum over every dose event
 * would scan the largest table on each page view.)
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings } from '@/db/schema';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { type Period, reportingPeriodEnding } from '@/engine/aggregation/reporting-period';
import { utcDayNumber } from '@/engine/time/local-day';

export { LOOKBACK_DAYS, lookbackStart, PERIOD_DAYS, PERMISSIBLE_GAP_DAYS, type Period } from '@/engine/aggregation/reporting-period';

/** [start, end) of the last 12 months of data: end is the day after the last supplied day, at most tomorrow (UTC). */
export async function findReportingPeriod(options: { database: Database; now: Date }): Promise<Period> {
  // date + integer is a date in PostgreSQL: the day after the fill's supply runs out.
  const [last] = await options.database
    .select({ suppliedUntil: sql<string | null>`max(${dispensings.dispensedOn} + ${dispensings.daysSupply})::text` })
    .from(dispensings);
  return reportingPeriodEnding({
    suppliedUntil: last?.suppliedUntil ? dayNumberFromIso(last.suppliedUntil) : null,
    today: utcDayNumber(options.now),
  });
}
