import 'server-only';
/**
 * The periods a portal page offers, resolved as a view would resolve them (docs/decisions/057): the last 3, 6 and
 * 12 months and the five calendar years of the period picker, for the whole population (officials, admins) and
 * for each company's products (a manufacturer of one company), each at its scope's as-of day. The refresh job
 * registers and builds them ahead, so the first view after new data reads built rows instead of computing every
 * patient per request.
 */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { CohortScope } from '@/db/queries/cohort-scope';
import { findReportingPeriod, type ReportingPeriod } from '@/db/queries/reporting-period';
import { drugCompanies, products } from '@/db/schema';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { type PeriodChoice, resolvePeriod } from '@/engine/aggregation/reporting-period';

/** The picker's choices at an as-of day (src/components/reporting-period-bar.tsx: the as-of year and four before). */
export function pickerChoices(asOf: number): PeriodChoice[] {
  const year = Number(isoFromDayNumber(asOf).slice(0, 4));
  return [
    { kind: 'last-months', months: 12 },
    { kind: 'last-months', months: 6 },
    { kind: 'last-months', months: 3 },
    ...Array.from({ length: 5 }, (_, index): PeriodChoice => ({ kind: 'calendar-year', year: year - index })),
  ];
}

export async function findPeriodsUsersOpen(options: { database: Database; now: Date }): Promise<ReportingPeriod[]> {
  const { database, now } = options;
  const companies = await database
    .select({ id: drugCompanies.id, name: drugCompanies.name })
    .from(drugCompanies)
    .orderBy(asc(drugCompanies.id));
  const scopes: CohortScope[] = [{ kind: 'all' }];
  for (const company of companies) {
    const productIds = (await database.select({ id: products.id }).from(products).where(eq(products.companyId, company.id))).map(
      (product) => product.id,
    );
    if (productIds.length > 0) scopes.push({ kind: 'companies', companies: [company], productIds });
  }
  const periods = new Map<string, ReportingPeriod>();
  for (const scope of scopes) {
    const { asOf, latestData } = await findReportingPeriod({ database, scope, now });
    for (const choice of pickerChoices(asOf)) {
      const period = resolvePeriod({ choice, asOf, latestData });
      periods.set(`${period.start}:${period.end}`, period);
    }
  }
  return [...periods.values()];
}
