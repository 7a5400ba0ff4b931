import 'server-only';
/**
 * What the portal's figures are computed from, read in a few set-shaped queries (issue 15 Engineering):
 * the scope's products (manufacturers: their selected companies' products, else all their companies';
 * never another company's), one row per patient with their fills of the chosen products (aggregated into
 * arrays in SQL, as the read layer's loadCohortFillsByPatient does), dose counts by weekday and hour, and
 * missed-dose reasons (replies from their pre-aggregate, portal-reply-counts.ts; survey answers, load-survey-reasons.ts). Filters are applied in SQL and again by applyPortalFilters (one
 * rule). Nothing patient-level leaves the server: the use cases return only suppressed tables.
 */
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type CohortScope, scopeProductIds } from '@/db/queries/cohort-scope';
import { lookbackStart, type ReportingPeriod } from '@/db/queries/reporting-period';
import { dispensings, drugCompanies, patients, products } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { loadDoseSlots } from './portal-dose-slots';
import { loadSummarisedTotals } from './portal-patient-summaries';
import { loadSurveyReasons } from './load-survey-reasons';
import { loadMissedDoseReasons } from './portal-reply-counts';
import {
  applyPortalFilters,
  type DoseSlot,
  NOT_RECORDED,
  type PortalAudience,
  type PortalFilters,
  type PortalInput,
  type PortalProduct,
  type PortalTotals,
  portalTotalsOf,
  type ReasonCount,
  noSurveyReasons,
  type SurveyReasonCounts,
} from '../portal-tables';

export type PortalFilterOptions = {
  products: { id: string; name: string; companyName: string | null }[];
  companies: { id: string; name: string }[];
  regions: string[];
};

/** The products a scope may read, with their company and ATC code. */
export async function findScopeProducts(database: Database, scope: CohortScope): Promise<PortalProduct[]> {
  const ids = scopeProductIds(scope);
  if (ids !== null && ids.length === 0) return [];
  return database
    .select({
      id: products.id,
      name: products.name,
      companyId: products.companyId,
      companyName: drugCompanies.name,
      atcCode: products.atcCode,
    })
    .from(products)
    .leftJoin(drugCompanies, eq(drugCompanies.id, products.companyId))
    .where(ids === null ? undefined : inArray(products.id, ids))
    .orderBy(asc(products.name), asc(products.id));
}

export function filterOptionsOf(scopeProducts: readonly PortalProduct[], regions: readonly string[]): PortalFilterOptions {
  const companies = new Map<string, string>();
  for (const product of scopeProducts)
    if (product.companyId !== null) companies.set(product.companyId, product.companyName ?? product.companyId);
  return {
    products: scopeProducts.map((product) => ({ id: product.id, name: product.name, companyName: product.companyName })),
    companies: [...companies].map(([id, name]) => ({ id, name })).sort((left, right) => left.name.localeCompare(right.name)),
    regions: [...regions],
  };
}

/** Regions of the patients ever dispensed one of the products (the region filter's choices). */
export async function findPortalRegions(database: Database, productIds: readonly string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  // Per region (a handful) whether any of its patients has such a dispensing: each test stops at the first one,
  // where testing every patient took over a second at 100,000 patients.
  const rows = (await database.execute(sql`
    select coalesce(r.region, ${NOT_RECORDED}) as region from (select distinct ${patients.region} as region from ${patients}) r
    where exists (select 1 from ${patients} p join ${dispensings} d on d.patient_id = p.id
      where p.region is not distinct from r.region and d.product_id in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )}))`)) as unknown as { rows: { region: string }[] };
  return rows.rows.map((row) => row.region).sort((left, right) => left.localeCompare(right));
}

const regionCondition = (region: string | null) =>
  region === null ? undefined : region === NOT_RECORDED ? sql`${patients.region} is null` : eq(patients.region, region);

export async function loadPortalInput(options: {
  database: Database;
  audience: PortalAudience;
  period: ReportingPeriod;
  scopeProducts: readonly PortalProduct[];
  filters: PortalFilters;
  /** 'direct': dose slots computed from dose_events only (the reference the pre-aggregate is tested against). */
  doseSource?: 'aggregate' | 'direct';
}): Promise<PortalInput> {
  const { database, audience, period, filters } = options;
  const chosen = applyPortalFilters({ audience, period, products: options.scopeProducts, patients: [], fills: [] }, filters).products;
  const productIds = chosen.map((product) => product.id);
  if (productIds.length === 0)
    return { audience, period, products: chosen, patients: [], fills: [], doses: [], reasons: [], surveyReasons: noSurveyReasons };
  const ofProducts = inArray(dispensings.productId, productIds);
  const region = regionCondition(filters.region);
  // Same-day fills in one order everywhere (the pre-aggregate's loader uses it too).
  const ordered = sql`order by ${dispensings.dispensedOn}, ${dispensings.productId}, ${dispensings.daysSupply}`;

  const [people, { doses, reasons: reasonCounts, surveyReasons }] = await Promise.all([
    database
      .select({
        id: patients.id,
        region: patients.region,
        ageBand: patients.ageBand,
        sex: patients.sex,
        conditions: patients.conditions,
        productIds: sql<string[]>`array_agg(${dispensings.productId} ${ordered})`,
        dispensedOn: sql<string[]>`array_agg(${dispensings.dispensedOn}::text ${ordered})`,
        daysSupply: sql<number[]>`array_agg(${dispensings.daysSupply} ${ordered})`,
      })
      .from(dispensings)
      .innerJoin(patients, eq(patients.id, dispensings.patientId))
      .where(
        and(
          ofProducts,
          region,
          gte(dispensings.dispensedOn, isoFromDayNumber(lookbackStart(period))),
          lt(dispensings.dispensedOn, isoFromDayNumber(period.end)),
        ),
      )
      .groupBy(patients.id),
    loadDosesAndReasons({ database, productIds, region: filters.region, period, doseSource: options.doseSource }),
  ]);

  const fills = people.flatMap((person) =>
    person.dispensedOn.map((dispensedOn, index) => ({
      patientId: person.id,
      productId: person.productIds[index]!,
      day: dayNumberFromIso(dispensedOn),
      daysSupply: Number(person.daysSupply[index]),
    })),
  );
  return applyPortalFiltersToInput(
    {
      audience,
      period,
      products: chosen,
      patients: people.map((person) => ({
        id: person.id,
        region: person.region,
        ageBand: person.ageBand,
        sex: person.sex,
        conditions: person.conditions,
      })),
      fills,
      doses,
      reasons: reasonCounts,
      surveyReasons,
    },
    filters,
  );
}

/** What a view shows besides the fills' figures: dose slots (pre-aggregated where exact) and missed-dose reasons (replies, surveys). */
async function loadDosesAndReasons(options: {
  database: Database;
  productIds: string[];
  region: string | null;
  period: ReportingPeriod;
  doseSource?: 'aggregate' | 'direct';
}): Promise<{ doses: DoseSlot[]; reasons: ReasonCount[]; surveyReasons: SurveyReasonCounts }> {
  const { database, productIds, period } = options;
  const [doses, reasons, surveyReasons] = await Promise.all([
    // Weekday (0 = Monday) and hour in the patient's own time zone, from the daily pre-aggregate where exact.
    loadDoseSlots({ database, productIds, region: options.region, period, source: options.doseSource }),
    // Replies are not tied to a product: those of patients dispensed one of the chosen products (decision 061).
    loadMissedDoseReasons({ database, productIds, region: options.region, period, source: options.doseSource }),
    // The same scope, from the barrier survey's answers (a direct read either way).
    loadSurveyReasons({ database, productIds, region: options.region, period }),
  ]);
  return { doses, reasons, surveyReasons };
}

/** A view's inputs as totals: from the per-patient pre-aggregate when it can answer, else through the engine now. */
export type PortalPageInput = {
  audience: PortalAudience;
  period: ReportingPeriod;
  products: readonly PortalProduct[];
  totals: PortalTotals;
  doses: readonly DoseSlot[];
  reasons: readonly ReasonCount[];
  surveyReasons: SurveyReasonCounts;
  /** Where the fills' figures came from (for tests and the benchmark). */
  source: 'pre-aggregate' | 'per-request';
};

export async function loadPortalPageInput(options: {
  database: Database;
  audience: PortalAudience;
  period: ReportingPeriod;
  scopeProducts: readonly PortalProduct[];
  filters: PortalFilters;
  now: Date;
  /** 'direct': everything computed per request from the records (the reference the pre-aggregates are tested against). */
  source?: 'aggregate' | 'direct';
}): Promise<PortalPageInput> {
  const { database, audience, period, filters } = options;
  const chosen = applyPortalFilters({ audience, period, products: options.scopeProducts, patients: [], fills: [] }, filters).products;
  if (options.source !== 'direct' && chosen.length > 0) {
    const productIds = chosen.map((product) => product.id);
    const [totals, extra] = await Promise.all([
      loadSummarisedTotals({ database, period, chosen, region: filters.region, now: options.now }),
      loadDosesAndReasons({ database, productIds, region: filters.region, period }),
    ]);
    if (totals !== null) return { audience, period, products: chosen, totals, ...extra, source: 'pre-aggregate' };
  }
  const input = await loadPortalInput({ ...options, doseSource: options.source });
  return {
    audience,
    period,
    products: input.products,
    totals: portalTotalsOf(input),
    doses: input.doses,
    reasons: input.reasons,
    surveyReasons: input.surveyReasons,
    source: 'per-request',
  };
}

function applyPortalFiltersToInput(input: PortalInput, filters: PortalFilters): PortalInput {
  return { ...applyPortalFilters(input, filters), doses: input.doses, reasons: input.reasons, surveyReasons: input.surveyReasons };
}
