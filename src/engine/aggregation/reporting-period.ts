/**
 * The reporting rules every view of adherence shares (the home page's headline, the patient profile, the
 * compliance journey, and the background jobs that will read adherence): a 12-month period that ends on
 * the last day any dispensed supply lasts to, never after today — a data set that ended last month still
 * shows its full year — with one earlier year of fills read, so supply dispensed before the period carries
 * into it. src/db/queries/reporting-period.ts reads the data these rules apply to.
 */

export const PERIOD_DAYS = 365;
/** Fills this many days before the period are read too, so their supply carries into it. */
export const LOOKBACK_DAYS = 365;
/** A gap of more than 60 days without supply ends a treatment episode (discontinuation). */
export const PERMISSIBLE_GAP_DAYS = 60;

/** Day numbers, [start, end). */
export type Period = { start: number; end: number };

/**
 * The period ending the day after the last supplied day (`suppliedUntil`: the day after a fill's supply
 * runs out, null without fills), at most the day after `today`.
 */
export function reportingPeriodEnding(options: { suppliedUntil: number | null; today: number }): Period {
  const cap = options.today + 1;
  const end = options.suppliedUntil === null ? cap : Math.min(options.suppliedUntil, cap);
  return { start: end - PERIOD_DAYS, end };
}

/** The first day of fills to read for a period (inclusive). */
export function lookbackStart(period: Period): number {
  return period.start - LOOKBACK_DAYS;
}
