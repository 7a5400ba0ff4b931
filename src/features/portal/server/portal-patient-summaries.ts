import 'server-only';
/**
 * The portal's per-patient pre-aggregate (docs/decisions/050): for each kept period and each product set (every
 * product, one company's, one product) a row per patient with what the engine makes of their fills — the same
 * summarisePatient the per-request path runs — so a whole-population view is a few GROUP BYs over one row per
 * patient instead of every fill through the engine. Exact, not fresh by hope: patients whose dispensings changed
 * since their rows were written are listed in portal_dirty_patients (triggers) and computed on read; a view of a
 * period not built yet is computed per request and registers the period for the refresh job (a large scope is shown
 * the newest built period of the same choice meanwhile, labelled: portal-served-period.ts, decision 060).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { lookbackStart, type ReportingPeriod } from '@/db/queries/reporting-period';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import type { Period } from '@/engine/aggregation/reporting-period';
import { enqueueJob } from '@/lib/server/jobs';
import {
  addGroupCount,
  dimensionKeys,
  addPatientSummary,
  emptyPortalTotals,
  NOT_RECORDED,
  type PatientSummary,
  patientEvents,
  pdcBins,
  periodMonths,
  type PortalDimensionId,
  type PortalFill,
  type PortalPatient,
  type PortalProduct,
  type PortalTotals,
  summarisePatient,
} from '../portal-tables';
import { portalRefreshJobKind } from '../schemas';
import { refreshForecastBases, registerCurrentForecastBases } from './portal-forecast-summaries';

const DAY_MS = 86_400_000;
/** A kept period nobody viewed for this long is dropped by the refresh. */
const UNUSED_PERIOD_DAYS = 7;
const INSERT_BATCH = 2_000;

export const periodKeyOf = (period: Period) => `${isoFromDayNumber(period.start)}:${isoFromDayNumber(period.end)}`;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** The level key of a group of two or more whole companies (decision 064). */
export const groupLevelKeyOf = (companyIds: readonly string[]) => `g:${[...new Set(companyIds)].sort().join('+')}`;

/**
 * The product set a view's chosen products are, as a row key of the pre-aggregate: every product (`*`), one
 * company's (`c:<id>`), one product (`p:<id>`), every product of two or more companies (`g:<ids>`, a manufacturer
 * of several companies with no filter; built once the group is registered, decision 064); null for any other set,
 * which is computed per request.
 */
export function levelKeyOf(chosen: readonly PortalProduct[], catalogue: readonly PortalProduct[]): string | null {
  if (chosen.length === 0) return null;
  const ids = new Set(chosen.map((product) => product.id));
  if (chosen.length === 1) return `p:${chosen[0]!.id}`;
  if (catalogue.length === ids.size && catalogue.every((product) => ids.has(product.id))) return '*';
  if (chosen.some((product) => product.companyId === null)) return null;
  const companyIds = new Set(chosen.map((product) => product.companyId!));
  const ofCompanies = catalogue.filter((product) => product.companyId !== null && companyIds.has(product.companyId));
  if (ofCompanies.length !== ids.size || !ofCompanies.every((product) => ids.has(product.id))) return null;
  return companyIds.size === 1 ? `c:${chosen[0]!.companyId}` : groupLevelKeyOf([...companyIds]);
}

/** A registered company group: its level key and companies. */
type CompanyGroup = { key: string; companyIds: ReadonlySet<string> };

async function loadCompanyGroups(database: Database): Promise<CompanyGroup[]> {
  const rows = rowsOf<{ key: string; companyIds: string[] }>(
    await database.execute(sql`select level_key as key, company_ids as "companyIds" from portal_summary_groups order by 1`),
  );
  return rows.map((row) => ({ key: row.key, companyIds: new Set(row.companyIds) }));
}

/** A group of companies registered for the pre-aggregate (its rows are written by the next refresh). */
export async function registerCompanyGroup(database: Database, companyIds: readonly string[]): Promise<void> {
  const sorted = [...new Set(companyIds)].sort();
  await database.execute(sql`insert into portal_summary_groups (level_key, company_ids)
    values (${groupLevelKeyOf(sorted)}, ${`{${sorted.map((id) => JSON.stringify(id)).join(',')}}`}::text[]) on conflict (level_key) do nothing`);
}

/**
 * Every manufacturer's companies when there are two or more (their view with no selection and no filter), registered
 * ahead by the refresh so that view reads built rows from the first time; a selection of several companies is
 * registered by its first view.
 */
async function registerManufacturersCompanyGroups(database: Database): Promise<void> {
  const rows = rowsOf<{ companyIds: string[] }>(
    await database.execute(sql`select array_agg(distinct m.company_id order by m.company_id) as "companyIds"
      from company_memberships m join user_profiles u on u.uid = m.user_id
      where u.role = 'drug-manufacturer' group by m.user_id having count(distinct m.company_id) > 1`),
  );
  for (const row of rows) await registerCompanyGroup(database, row.companyIds);
}

export async function loadCatalogue(database: Database): Promise<PortalProduct[]> {
  return rowsOf<PortalProduct>(
    await database.execute(sql`select id, name, company_id as "companyId", null as "companyName", atc_code as "atcCode" from products`),
  );
}

type PatientFills = PortalPatient & { fills: Omit<PortalFill, 'patientId'>[] };

/** Each patient's fills in [look-back start, period end) of the products (all when null), optionally only some patients. */
export async function loadPatientFills(options: {
  database: Database;
  period: Period;
  productIds: readonly string[] | null;
  patientIds?: readonly string[];
  region?: string | null;
}): Promise<PatientFills[]> {
  const { database, period, productIds, patientIds } = options;
  if (productIds !== null && productIds.length === 0) return [];
  if (patientIds !== undefined && patientIds.length === 0) return [];
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const conditions: SQL[] = [
    sql`d.product_id is not null`,
    sql`d.dispensed_on >= ${isoFromDayNumber(lookbackStart(period))}::date`,
    sql`d.dispensed_on < ${isoFromDayNumber(period.end)}::date`,
  ];
  if (productIds !== null) conditions.push(sql`d.product_id in (${list(productIds)})`);
  if (patientIds !== undefined) conditions.push(sql`d.patient_id in (${list(patientIds)})`);
  const region = options.region ?? null;
  if (region !== null) conditions.push(region === NOT_RECORDED ? sql`p.region is null` : sql`p.region = ${region}`);
  const rows = rowsOf<{
    id: string;
    region: string | null;
    ageBand: string | null;
    sex: string | null;
    conditions: string[];
    productIds: string[];
    days: string[];
    supplies: number[];
  }>(
    await database.execute(sql`
      select p.id, p.region, p.age_band as "ageBand", p.sex, p.conditions,
        array_agg(d.product_id order by d.dispensed_on, d.product_id, d.days_supply) as "productIds",
        array_agg(d.dispensed_on::text order by d.dispensed_on, d.product_id, d.days_supply) as days,
        array_agg(d.days_supply order by d.dispensed_on, d.product_id, d.days_supply) as supplies
      from dispensings d join patients p on p.id = d.patient_id
      where ${sql.join(conditions, sql` and `)}
      group by p.id`),
  );
  return rows.map((row) => ({
    id: row.id,
    region: row.region,
    ageBand: row.ageBand,
    sex: row.sex,
    conditions: row.conditions,
    fills: row.days.map((day, index) => ({
      productId: row.productIds[index]!,
      day: dayNumberFromIso(day),
      daysSupply: Number(row.supplies[index]),
    })),
  }));
}

type SummaryRow = {
  period_key: string;
  level_key: string;
  patient_id: string;
  member: boolean;
  adherent: boolean;
  pdc_bin: number;
  product_ids: string[];
  on_months: number[];
  adherent_months: number[];
  start_months: number[];
  stop_months: number[];
  gap_counts: number[];
  subject_times: number[];
  subject_events: boolean[];
  region: string;
  age_band: string | null;
  sex: string | null;
  conditions: string[];
  company_keys: string[];
  class_keys: string[];
};

/** Every product-set row of one patient for one period. */
function summaryRows(
  periodKey: string,
  period: Period,
  patient: PatientFills,
  catalogue: ReadonlyMap<string, PortalProduct>,
  groups: readonly CompanyGroup[],
): SummaryRow[] {
  const months = periodMonths(period);
  const fills = patient.fills.filter((fill) => catalogue.has(fill.productId));
  const sets = new Map<string, Omit<PortalFill, 'patientId'>[]>();
  const add = (key: string, fill: Omit<PortalFill, 'patientId'>) => {
    const own = sets.get(key);
    if (own === undefined) sets.set(key, [fill]);
    else own.push(fill);
  };
  for (const fill of fills) {
    add('*', fill);
    add(`p:${fill.productId}`, fill);
    const companyId = catalogue.get(fill.productId)!.companyId;
    if (companyId !== null) {
      add(`c:${companyId}`, fill);
      for (const group of groups) if (group.companyIds.has(companyId)) add(group.key, fill);
    }
  }
  const rows: SummaryRow[] = [];
  for (const [levelKey, own] of sets) {
    const summary = summarisePatient(patientEvents(own), period, months);
    if (summary !== null) rows.push(rowOf(periodKey, levelKey, patient, summary, catalogue));
  }
  return rows;
}

function rowOf(
  periodKey: string,
  levelKey: string,
  patient: PortalPatient,
  summary: PatientSummary,
  catalogue: ReadonlyMap<string, PortalProduct>,
): SummaryRow {
  const productIds = summary.member?.productIds ?? [];
  return {
    company_keys: dimensionKeys('company', patient, productIds, catalogue),
    class_keys: dimensionKeys('product-class', patient, productIds, catalogue),
    period_key: periodKey,
    level_key: levelKey,
    patient_id: patient.id,
    region: patient.region ?? NOT_RECORDED,
    age_band: patient.ageBand,
    sex: patient.sex,
    conditions: [...patient.conditions],
    member: summary.member !== null,
    adherent: summary.member?.adherent ?? false,
    pdc_bin: summary.member?.pdcBin ?? -1,
    product_ids: summary.member?.productIds ?? [],
    on_months: summary.onMonths,
    adherent_months: summary.adherentMonths,
    start_months: summary.startMonths,
    stop_months: summary.stopMonths,
    gap_counts: summary.gapCounts,
    subject_times: summary.subjects.map((subject) => subject.time),
    subject_events: summary.subjects.map((subject) => subject.event),
  };
}

async function insertRows(database: Database, rows: readonly SummaryRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = JSON.stringify(rows.slice(start, start + INSERT_BATCH));
    await database.execute(sql`
      insert into portal_patient_summaries (period_key, level_key, patient_id, member, adherent, pdc_bin, product_ids, on_months,
        adherent_months, start_months, stop_months, gap_counts, subject_times, subject_events, region, age_band, sex, conditions,
        company_keys, class_keys)
      select period_key, level_key, patient_id, member, adherent, pdc_bin, product_ids, on_months, adherent_months, start_months,
        stop_months, gap_counts, subject_times, subject_events, region, age_band, sex, conditions, company_keys, class_keys
      from jsonb_to_recordset(${batch}::jsonb) as r(period_key text, level_key text, patient_id uuid, member boolean, adherent boolean,
        pdc_bin smallint, product_ids text[], on_months smallint[], adherent_months smallint[], start_months smallint[],
        stop_months smallint[], gap_counts integer[], subject_times integer[], subject_events boolean[], region text, age_band text,
        sex text, conditions text[], company_keys text[], class_keys text[])`);
  }
}

/** Rows of the given patients (all when null) for one period, written from their current fills. */
async function writePeriodRows(
  database: Database,
  periodKey: string,
  period: Period,
  catalogue: ReadonlyMap<string, PortalProduct>,
  groups: readonly CompanyGroup[],
  patientIds: readonly string[] | null,
): Promise<number> {
  const patients = await loadPatientFills({ database, period, productIds: null, patientIds: patientIds ?? undefined });
  const rows = patients.flatMap((patient) => summaryRows(periodKey, period, patient, catalogue, groups));
  await insertRows(database, rows);
  return rows.length;
}

/**
 * Every figure of the page summed over per-patient rows (`source`, with the rows' own demographics), as
 * (part, key, n, a) — grouped further by `by` (e.g. level and region, for the cells). The view sums these; the
 * company and ATC breakdowns read the keys stored with the row (distinct per patient, as the page counts them).
 */
function partsOver(source: SQL, by: readonly string[]): SQL {
  const extra = sql.raw(by.map((column) => `${column}, `).join(''));
  const grouped = (keys: string) => sql.raw(`group by ${[...by, keys].join(', ')}`);
  // Keys as literal SQL (a constant, not a parameter), so each select's key is the expression it groups by.
  const notRecorded = `'${NOT_RECORDED}'`;
  const counted = (part: string, key: string, from: string) =>
    sql.raw(
      `select ${by.map((column) => `${column}, `).join('')}'${part}'::text as part, (${key})::text as key, count(*)::int as n, ` +
        `count(*) filter (where adherent)::int as a from ${from} group by ${[...by, key].join(', ')}`,
    );
  return sql`
    with s as materialized (${source}), m as (select * from s where member)
    select ${extra}'on'::text as part, k::text as key, count(*)::int as n, 0 as a from s, unnest(on_months) k ${grouped('k')}
    union all select ${extra}'adherent', k::text, count(*)::int, 0 from s, unnest(adherent_months) k ${grouped('k')}
    union all select ${extra}'start', k::text, count(*)::int, 0 from s, unnest(start_months) k ${grouped('k')}
    union all select ${extra}'stop', k::text, count(*)::int, 0 from s, unnest(stop_months) k ${grouped('k')}
    union all select ${extra}'gap', (i - 1)::text, sum(g)::int, 0 from s, unnest(gap_counts) with ordinality u(g, i) ${grouped('i')}
    union all select ${extra}'subject', t::text, count(*) filter (where e)::int, count(*) filter (where not e)::int
      from s, unnest(subject_times, subject_events) u(t, e) ${grouped('t')}
    union all ${counted('pdc', 'pdc_bin', 'm')}
    union all ${counted('region', 'region', 'm')}
    union all ${counted('age-band', `coalesce(age_band, ${notRecorded})`, 'm')}
    union all ${counted('sex', `coalesce(sex, ${notRecorded})`, 'm')}
    union all ${counted('product', 'k', 'm, unnest(product_ids) k')}
    union all ${counted('condition', 'k', `m, unnest(case when cardinality(conditions) = 0 then array[${notRecorded}]::text[] else conditions end) k`)}
    union all ${counted('company', 'k', 'm, unnest(company_keys) k')}
    union all ${counted('product-class', 'k', 'm, unnest(class_keys) k')}`;
}

/** The period's cells rewritten from its rows (in the refresh's transaction, so cells and rows always agree). */
async function writePeriodCells(database: Database, periodKey: string): Promise<void> {
  await database.execute(sql`delete from portal_summary_cells where period_key = ${periodKey}`);
  await database.execute(sql`
    insert into portal_summary_cells (period_key, level_key, region, part, key, n, a)
    select ${periodKey}, level_key, region, part, key, n, a from (${partsOver(
      sql`select * from portal_patient_summaries where period_key = ${periodKey}`,
      ['level_key', 'region'],
    )}) cells`);
}

/**
 * The refresh (job portal.refresh-aggregates, with the dose slots): drops periods unused for a week, builds the
 * registered periods not built yet, rewrites the rows of the patients listed dirty in every built period, then
 * deletes those list entries whose generation is the one it read — an entry rewritten by a change committed
 * meanwhile has a newer generation and stays. One transaction: views see the old rows or the new ones.
 */
export async function refreshPortalPatientSummaries(options: {
  database: Database;
  now: Date;
  /** Registered (and built) too, e.g. the default period of the whole data set after the demo seed. */
  periods?: readonly ReportingPeriod[];
  /** Tests: a write between reading the dirty list and clearing it (as if committed meanwhile). */
  afterDirtyRead?: (transaction: Database) => Promise<void>;
}): Promise<{
  periods: number;
  built: number;
  rows: number;
  dirtyPatients: number;
  forecast: { bases: number; built: number; rows: number };
}> {
  const { now } = options;
  // Registered and committed before the long transaction (decision 060): a period inserted by it uncommitted would
  // make a view registering the same period wait for the whole refresh; committed, the view's insert does nothing.
  await options.database.transaction(async (database) => {
    for (const period of options.periods ?? []) await registerPeriod(database, period, now);
    await registerCurrentForecastBases(database, now);
    await registerManufacturersCompanyGroups(database);
  });
  return options.database.transaction(async (database) => {
    await database.execute(
      sql`delete from portal_summary_periods where last_used_at < ${new Date(now.getTime() - UNUSED_PERIOD_DAYS * DAY_MS).toISOString()}::timestamptz`,
    );
    // Row locks: a second refresh waits for this one; views registering a new period do not.
    const periods = rowsOf<{ key: string; start: string; end: string; built: boolean; groupLevels: string[] }>(
      await database.execute(
        sql`select period_key as key, start::text as start, "end"::text as "end", built_at is not null as built,
          group_levels as "groupLevels" from portal_summary_periods order by 1 for update`,
      ),
    );
    const dirty = rowsOf<{ id: string; generation: string | number }>(
      await database.execute(sql`select patient_id as id, generation from portal_dirty_patients`),
    );
    const dirtyIds = dirty.map((row) => row.id);
    await options.afterDirtyRead?.(database);
    const catalogue = new Map((await loadCatalogue(database)).map((product) => [product.id, product]));
    // Groups registered after this read are missing from the periods' group_levels, so the next refresh builds them.
    const groups = await loadCompanyGroups(database);
    const groupKeys = groups.map((group) => group.key);
    let rows = 0;
    let built = 0;
    for (const row of periods) {
      const period = { start: dayNumberFromIso(row.start), end: dayNumberFromIso(row.end) };
      // A built period missing a registered group is rebuilt whole (decision 064); views keep reading its old rows,
      // for the levels it has, until this transaction commits.
      if (!row.built || groupKeys.some((key) => !row.groupLevels.includes(key))) {
        await database.execute(sql`delete from portal_patient_summaries where period_key = ${row.key}`);
        rows += await writePeriodRows(database, row.key, period, catalogue, groups, null);
        await writePeriodCells(database, row.key);
        await database.execute(
          sql`update portal_summary_periods set built_at = ${now.toISOString()}::timestamptz,
            group_levels = ${`{${groupKeys.map((key) => JSON.stringify(key)).join(',')}}`}::text[] where period_key = ${row.key}`,
        );
        built += 1;
      } else if (dirtyIds.length > 0) {
        for (let start = 0; start < dirtyIds.length; start += INSERT_BATCH * 5) {
          const ids = dirtyIds.slice(start, start + INSERT_BATCH * 5);
          await database.execute(sql`delete from portal_patient_summaries where period_key = ${row.key}
            and patient_id = any(${`{${ids.join(',')}}`}::uuid[])`);
          rows += await writePeriodRows(database, row.key, period, catalogue, groups, ids);
        }
        await writePeriodCells(database, row.key);
      }
    }
    // The demand forecast's pre-aggregate (decision 057) reads the same dirty list: rewritten before it is cleared.
    const forecast = await refreshForecastBases({ database, now, dirtyIds });
    if (dirty.length > 0)
      await database.execute(sql`
        delete from portal_dirty_patients d
        using jsonb_to_recordset(${JSON.stringify(dirty.map((entry) => ({ id: entry.id, generation: Number(entry.generation) })))}::jsonb)
          as r(id uuid, generation bigint)
        where d.patient_id = r.id and d.generation <= r.generation`);
    return { periods: periods.length, built, rows, dirtyPatients: dirty.length, forecast };
  });
}

async function registerPeriod(database: Database, period: Period, now: Date): Promise<void> {
  await database.execute(sql`
    insert into portal_summary_periods (period_key, start, "end", last_used_at)
    values (${periodKeyOf(period)}, ${isoFromDayNumber(period.start)}::date, ${isoFromDayNumber(period.end)}::date, ${now.toISOString()}::timestamptz)
    on conflict (period_key) do update set last_used_at = excluded.last_used_at
    where portal_summary_periods.last_used_at < excluded.last_used_at - interval '1 hour'`);
}

/**
 * A period a view asked for that is not built: registered (its own row, so a running refresh holding the others
 * locked never makes a view wait) and one refresh queued for it. Returns the queued job and its status; a job of
 * that key that already ended without building the period (it read the period list before the period was
 * registered, or failed) gets a successor.
 */
export async function registerViewedPeriod(
  database: Database,
  period: Period,
  now: Date,
): Promise<{ jobId: string; status: 'queued' | 'running' }> {
  const periodKey = periodKeyOf(period);
  await database.execute(sql`
    insert into portal_summary_periods (period_key, start, "end", last_used_at)
    values (${periodKey}, ${isoFromDayNumber(period.start)}::date, ${isoFromDayNumber(period.end)}::date, ${now.toISOString()}::timestamptz)
    on conflict (period_key) do nothing`);
  return queueRefreshFor(database, `${portalRefreshJobKind}:period:${periodKey}`);
}

/** A refresh queued under `dedupeKey` (or, when that one has ended, under a key naming it), with its status. */
export async function queueRefreshFor(database: Database, dedupeKey: string): Promise<{ jobId: string; status: 'queued' | 'running' }> {
  let key = dedupeKey;
  for (;;) {
    const job = await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: key, payload: {} });
    const [row] = rowsOf<{ status: string }>(await database.execute(sql`select status from jobs where id = ${job.id}`));
    if (row?.status === 'queued' || row?.status === 'running') return { jobId: job.id, status: row.status };
    key = `${dedupeKey}:after:${job.id}`;
  }
}

/**
 * The totals of a view from the pre-aggregate, or null when it cannot answer (the product set is not one it
 * keeps, or the period is not built yet — then the period is registered and a refresh queued). Rows of patients
 * listed dirty are left out and those patients computed from their fills now, in the same snapshot.
 */
export async function loadSummarisedTotals(options: {
  database: Database;
  period: Period;
  chosen: readonly PortalProduct[];
  region: string | null;
  now: Date;
}): Promise<PortalTotals | null> {
  const { database, period, chosen, region, now } = options;
  const levelKey = levelKeyOf(chosen, await loadCatalogue(database));
  if (levelKey === null) return null;
  const periodKey = periodKeyOf(period);
  const hourAgo = new Date(now.getTime() - DAY_MS / 24).toISOString();
  const [state] = rowsOf<{ built: boolean; stale: boolean; hasLevel: boolean }>(
    await database.execute(sql`select built_at is not null as built, last_used_at < ${hourAgo}::timestamptz as stale,
        (${levelKey} not like 'g:%' or ${levelKey} = any(group_levels)) as "hasLevel"
      from portal_summary_periods where period_key = ${periodKey}`),
  );
  // A view never waits for a refresh: the refresh holds its periods' rows locked while it builds, so a new
  // period is inserted (its own row) and a known one's last use noted at most hourly, skipping a locked row.
  if (state === undefined) {
    await registerViewedPeriod(database, period, now);
    return null;
  }
  if (state.stale)
    await database.execute(sql`update portal_summary_periods set last_used_at = ${now.toISOString()}::timestamptz
      where period_key in (select period_key from portal_summary_periods where period_key = ${periodKey} for update skip locked)`);
  if (!state.built) return null;
  if (!state.hasLevel) {
    // A group of companies not built yet (decision 064): registered for the next refresh, computed per request now.
    await registerCompanyGroup(database, [...new Set(chosen.map((product) => product.companyId!))]);
    await queueRefreshFor(database, `${portalRefreshJobKind}:group:${levelKey}`);
    return null;
  }
  const months = periodMonths(period);
  const totals = emptyPortalTotals(months.length);
  const productById = new Map(chosen.map((product) => [product.id, product]));
  const inRegion = region === null ? sql`` : sql`and region = ${region}`;
  // ONE statement, so one snapshot: the cells, minus the rows of the patients listed dirty (under the
  // demographics they were written with), and that list. The listed patients are then added from their fills,
  // so each patient counts once whatever a refresh commits meanwhile.
  const parts = rowsOf<{ part: string; key: string; n: number; a: number; sign: number }>(
    await database.execute(sql`
      select part, key, sum(n)::int as n, sum(a)::int as a, 1 as sign from portal_summary_cells
        where period_key = ${periodKey} and level_key = ${levelKey} ${inRegion} group by part, key
      union all select part, key, n, a, -1 from (${partsOver(
        sql`select * from portal_patient_summaries where period_key = ${periodKey} and level_key = ${levelKey} ${inRegion}
          and patient_id in (select patient_id from portal_dirty_patients)`,
        [],
      )}) listed
      union all select 'dirty', patient_id::text, (generation % 1000000000)::int, 0, 0 from portal_dirty_patients`),
  );
  const dirty: string[] = [];
  let latestGeneration = 0;
  const subjects = new Map<number, { events: number; censored: number }>();
  for (const row of parts) {
    const sign = Number(row.sign);
    const n = Number(row.n) * sign;
    const a = Number(row.a) * sign;
    const index = Number(row.key);
    switch (row.part) {
      case 'on':
      case 'adherent':
      case 'start':
      case 'stop': {
        const month = totals.months[index];
        if (month === undefined) break;
        if (row.part === 'on') month.onTherapy += n;
        else if (row.part === 'adherent') month.adherent += n;
        else if (row.part === 'start') month.newStarts += n;
        else month.discontinuations += n;
        break;
      }
      case 'gap':
        if (index < totals.gapCounts.length) totals.gapCounts[index]! += n;
        break;
      case 'subject': {
        const seen = subjects.get(index) ?? { events: 0, censored: 0 };
        subjects.set(index, { events: seen.events + n, censored: seen.censored + a });
        break;
      }
      case 'pdc':
        totals.cohort.size += n;
        totals.cohort.adherent += a;
        if (index >= 0 && index < pdcBins.length) totals.pdcBinCounts[index]! += n;
        break;
      case 'dirty':
        dirty.push(row.key);
        latestGeneration = Math.max(latestGeneration, Number(row.n));
        break;
      default:
        addGroupCount(totals.groups[row.part as PortalDimensionId], row.key, n, a);
    }
  }
  for (const [time, count] of subjects) {
    for (let subject = 0; subject < count.events; subject += 1) totals.subjects.push({ time, event: true });
    for (let subject = 0; subject < count.censored; subject += 1) totals.subjects.push({ time, event: false });
  }
  // A group all of whose patients were listed is gone, as it would be computed per request.
  for (const groups of Object.values(totals.groups)) for (const [key, count] of groups) if (count.size === 0) groups.delete(key);
  if (dirty.length > 0) {
    // Patients whose fills changed since their rows were written: through the engine now, from their fills.
    const patients = await loadPatientFills({
      database,
      period,
      productIds: chosen.map((product) => product.id),
      patientIds: dirty,
      region,
    });
    for (const patient of patients) {
      const summary = summarisePatient(patientEvents(patient.fills), period, months);
      if (summary !== null) addPatientSummary(totals, summary, patient, productById);
    }
    // Once per change: the refresh rewrites their rows.
    await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: `${portalRefreshJobKind}:g${latestGeneration}`, payload: {} });
  }
  return totals;
}
