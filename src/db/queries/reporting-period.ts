import 'server-only';
/**
 * The reporting period, read once for every feature (shared read layer, docs/decisions/008): the rules are
 * the engine's (src/engine/aggregation/reporting-period.ts); this reads the data they apply to — the latest
 * day a viewer's cohort has data for — and counts the cohort the same way on every page.
 */
import { and, countDistinct, desc, eq, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, patients } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import {
  asOfDay,
  DEFAULT_PERIOD_CHOICE,
  type Period,
  type PeriodChoice,
  type ReportingPeriod,
  resolvePeriod,
} from '@/engine/aggregation/reporting-period';
import { suppressCount } from '@/engine/aggregation/small-cell-suppression';
import { MS_PER_DAY, utcDayNumber } from '@/engine/time/local-day';
import { type CohortScope, cohortConditions, scopeProductIds } from './cohort-scope';

export {
  DEFAULT_PERIOD_CHOICE,
  LOOKBACK_DAYS,
  lookbackStart,
  PERMISSIBLE_GAP_DAYS,
  type Period,
  type PeriodChoice,
  type ReportingPeriod,
} from '@/engine/aggregation/reporting-period';
export { type PeriodView, periodView } from '@/lib/period-query';

/**
 * The latest day on or before today that a scope's data covers: its latest dispensing or observed dose
 * (not 'unknown'); null without either. Rows dated after today are ignored, so a bad import cannot move it.
 * Cheap on every page view: dispensings are few; dose events, the largest table, are read as one backward
 * probe per patient of the (patient, scheduled_at) index rather than by a scan.
 */
export async function findLatestDataDay(options: { database: Database; scope: CohortScope; now: Date }): Promise<number | null> {
  const { database, scope } = options;
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return null;
  const today = utcDayNumber(options.now);
  const productIds = scopeProductIds(scope);
  const endOfToday = new Date((today + 1) * MS_PER_DAY);

  // The scope's latest dose by a backward walk of the scheduled_at index that stops at the first one in scope
  // (a per-patient lateral look-up took seconds at 100,000 patients).
  const [[fill], [dose]] = await Promise.all([
    database
      .select({ last: sql<string | null>`max(${dispensings.dispensedOn})::text` })
      .from(dispensings)
      .innerJoin(patients, eq(patients.id, dispensings.patientId))
      .where(and(conditions.dispensings, lte(dispensings.dispensedOn, isoFromDayNumber(today)))),
    database
      .select({ last: doseEvents.scheduledAt })
      .from(doseEvents)
      .innerJoin(patients, eq(patients.id, doseEvents.patientId))
      .where(
        and(
          lt(doseEvents.scheduledAt, endOfToday),
          ne(doseEvents.status, 'unknown'),
          productIds === null ? undefined : inArray(doseEvents.productId, productIds),
          conditions.patients,
        ),
      )
      .orderBy(desc(doseEvents.scheduledAt))
      .limit(1),
  ]);
  const days = [fill?.last ? dayNumberFromIso(fill.last) : null, dose?.last ? utcDayNumber(new Date(dose.last)) : null].filter(
    (day): day is number => day !== null,
  );
  return days.length === 0 ? null : Math.max(...days);
}

/**
 * The period a viewer sees for a choice (default: the 12 months ending on the as-of date): the same rule,
 * and so the same dates, on every page for the same viewer and choice.
 */
export async function findReportingPeriod(options: {
  database: Database;
  scope: CohortScope;
  choice?: PeriodChoice;
  now: Date;
}): Promise<ReportingPeriod> {
  const latestData = await findLatestDataDay(options);
  const asOf = asOfDay({ latestData, today: utcDayNumber(options.now) });
  return resolvePeriod({ choice: options.choice ?? DEFAULT_PERIOD_CHOICE, asOf, latestData });
}

/**
 * How many patients a scope holds and how many of them had a dispensing (in scope) in the period — the count
 * every page gives (the home page's "patients monitored", the journey's cohort, the data sources' line).
 * `patients` is null for a viewer who sees suppressed aggregates when those without a dispensing in the period
 * would be a small group: the difference of the two counts would reveal it.
 */
export type CohortCounts = { patients: number | null; withDispensingInPeriod: number };

export async function countCohortPatients(options: {
  database: Database;
  scope: CohortScope;
  period: Period;
  suppressed: boolean;
}): Promise<CohortCounts> {
  const { database, scope, period } = options;
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return { patients: 0, withDispensingInPeriod: 0 };
  const [[all], [dispensed]] = await Promise.all([
    database
      .select({ count: sql<number>`count(*)::int` })
      .from(patients)
      .where(conditions.patients),
    database
      .select({ count: countDistinct(dispensings.patientId) })
      .from(dispensings)
      .innerJoin(patients, eq(patients.id, dispensings.patientId))
      .where(
        and(
          conditions.dispensings,
          gte(dispensings.dispensedOn, isoFromDayNumber(period.start)),
          lt(dispensings.dispensedOn, isoFromDayNumber(period.end)),
        ),
      ),
  ]);
  const total = Number(all?.count ?? 0);
  const withDispensingInPeriod = Number(dispensed?.count ?? 0);
  const without = total - withDispensingInPeriod;
  const hidden = options.suppressed && without > 0 && suppressCount(without).suppressed;
  return { patients: hidden ? null : total, withDispensingInPeriod };
}
