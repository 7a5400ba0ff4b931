import 'server-only';
/**
 * The demand forecast's pre-aggregate (docs/decisions/057): for each product set (every dispensing `*`, one
 * company's products `c:<id>`, one product `p:<id>`) at its as-of day, the forecast cells of every patient
 * (src/engine/forecast/forecast-cells.ts) summed in portal_forecast_cells, with a row per patient and as-of day
 * so that a patient listed dirty (portal_dirty_patients, decision 050's triggers) can be taken out and computed
 * from their fills on read. The figures come from the summed cells either way, so they are the ones the
 * per-request path gives (forecast-product-demand.ts), bit for bit.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import {
  addCell,
  addCells,
  addHistoryCells,
  backtestMonthOf,
  completeMonthsBefore,
  FIT_LOOKBACK_DAYS,
  type Fill,
  type ForecastCells,
  forecastFromInputs,
  forecastInputsOf,
  HELD_OUT_MONTHS,
  scoreBacktest,
} from '@/engine/forecast';
import { enqueueJob } from '@/lib/server/jobs';
import { portalRefreshJobKind } from '../schemas';

/** Fills loaded before the backtest's fitting window, so episodes begun earlier keep their true start. */
export const HISTORY_BEFORE_WINDOW_DAYS = 365;
const DAY_MS = 86_400_000;
/** A base nobody viewed (and the refresh did not register) for this long is dropped. */
const UNUSED_BASE_DAYS = 7;
const INSERT_BATCH = 2_000;
const DIRTY_REBUILD_THRESHOLD = 5_000;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** The first day whose fills are loaded for an as-of day (the forecast's and the backtest's fits, and a year before). */
export function forecastLoadFrom(asOf: number): number {
  return completeMonthsBefore(asOf, HELD_OUT_MONTHS)[0]!.start - FIT_LOOKBACK_DAYS - HISTORY_BEFORE_WINDOW_DAYS;
}

export type ForecastFill = Fill & { productId: string | null };
export type ForecastPatient = { id: string; synthetic: boolean; fills: ForecastFill[] };

/**
 * Each patient's fills in [load start, as-of day) of the products (every dispensing when null, also one without a
 * product), optionally only some patients. Units: the quantity dispensed when recorded, else days' supply × doses
 * a day (else 1 a day).
 */
export async function loadForecastPatients(options: {
  database: Database;
  asOf: number;
  productIds: readonly string[] | null;
  patientIds?: readonly string[];
}): Promise<ForecastPatient[]> {
  const { database, asOf, productIds, patientIds } = options;
  if (productIds !== null && productIds.length === 0) return [];
  if (patientIds !== undefined && patientIds.length === 0) return [];
  const products =
    productIds === null ? sql`` : sql`and d.product_id = any(${`{${productIds.map((id) => JSON.stringify(id)).join(',')}}`}::text[])`;
  const only = patientIds === undefined ? sql`` : sql`and d.patient_id = any(${`{${patientIds.join(',')}}`}::uuid[])`;
  // Unordered (the engine sorts), so the database need not sort every fill.
  const rows = rowsOf<{ id: string; synthetic: boolean; fills: [number, number, number | string, string | null][] }>(
    await database.execute(sql`
      select d.patient_id as id, bool_or(p.synthetic) as synthetic, json_agg(json_build_array(
        d.dispensed_on - date '1970-01-01', d.days_supply,
        coalesce(d.quantity, d.days_supply * coalesce(d.doses_per_day, 1)), d.product_id)) as fills
      from dispensings d join patients p on p.id = d.patient_id
      where d.dispensed_on >= ${isoFromDayNumber(forecastLoadFrom(asOf))}::date and d.dispensed_on < ${isoFromDayNumber(asOf)}::date
        ${products} ${only}
      group by d.patient_id`),
  );
  return rows.map((row) => ({
    id: row.id,
    synthetic: row.synthetic,
    fills: row.fills.map(([day, daysSupply, units, productId]) => ({ day, daysSupply, units: Number(units), productId })),
  }));
}

/**
 * One patient's cells per product (key '' for fills without one): the forecast's ('f.') and the backtest fit's
 * ('b.') history cells, whether they had a fill in the forecast's / the backtest's fitting window ('fit', 'bfit'),
 * their fills per held-out month and month a quarter before ('m'), and whether they are synthetic ('s').
 */
export function patientProductCells(patient: ForecastPatient, asOf: number): Map<string, ForecastCells> {
  const cutoff = completeMonthsBefore(asOf, HELD_OUT_MONTHS)[0]!.start;
  const fitFrom = asOf - FIT_LOOKBACK_DAYS;
  const backtestFitFrom = cutoff - FIT_LOOKBACK_DAYS;
  const histories = new Map<string, Fill[]>();
  for (const fill of patient.fills) {
    if (fill.day >= asOf) continue;
    const key = fill.productId ?? '';
    const history = histories.get(key);
    if (history === undefined) histories.set(key, [fill]);
    else history.push(fill);
  }
  const byProduct = new Map<string, ForecastCells>();
  for (const [productId, history] of histories) {
    // Same-day fills in one order whatever order the database returned them in (the engine's sort is by day and
    // stable, and a same-day pair's order changes the carried-over supply and the recent units).
    history.sort((left, right) => left.day - right.day || left.daysSupply - right.daysSupply || left.units - right.units);
    const cells: ForecastCells = new Map();
    addHistoryCells(cells, history, asOf, 'f.');
    addHistoryCells(
      cells,
      history.filter((fill) => fill.day < cutoff),
      cutoff,
      'b.',
    );
    if (history.some((fill) => fill.day >= fitFrom)) addCell(cells, 'fit', '', 1);
    if (history.some((fill) => fill.day >= backtestFitFrom && fill.day < cutoff)) addCell(cells, 'bfit', '', 1);
    for (const fill of history) {
      const month = backtestMonthOf(fill.day, asOf);
      if (month !== null) addCell(cells, 'm', month, 1);
    }
    if (patient.synthetic) addCell(cells, 's', '', 1);
    byProduct.set(productId, cells);
  }
  return byProduct;
}

/** Patient-level parts count a patient once per set, whichever of its products they come from. */
const PATIENT_PARTS = new Set(['fit|', 'bfit|', 's|']);

/** One patient's cells for a set (`productIds` null: every product), from their per-product cells. */
export function patientSetCells(
  byProduct: ReadonlyMap<string, ReadonlyMap<string, number>> | Record<string, [string, number][]>,
  productIds: ReadonlySet<string> | null,
): ForecastCells {
  const cells: ForecastCells = new Map();
  const entries: [string, Iterable<readonly [string, number]>][] =
    byProduct instanceof Map ? [...byProduct.entries()] : Object.entries(byProduct as Record<string, [string, number][]>);
  for (const [productId, own] of entries) {
    if (productIds !== null && !productIds.has(productId)) continue;
    for (const [name, n] of own) {
      if (PATIENT_PARTS.has(name)) cells.set(name, 1);
      else addCells(cells, [[name, n]]);
    }
  }
  return cells;
}

export type ForecastFigures = {
  patients: number;
  backtestPatients: number;
  synthetic: boolean;
  forecast: ReturnType<typeof forecastFromInputs>;
  backtest: ReturnType<typeof scoreBacktest>;
};

/** Everything the page shows, from a set's summed cells at its as-of day. */
export function forecastFiguresOf(cells: ForecastCells, asOf: number): ForecastFigures {
  const cutoff = completeMonthsBefore(asOf, HELD_OUT_MONTHS)[0]!.start;
  const months = [0, 1, 2, 3, 4, 5].map((month) => cells.get(`m|${month}`) ?? 0);
  return {
    patients: cells.get('fit|') ?? 0,
    backtestPatients: cells.get('bfit|') ?? 0,
    synthetic: (cells.get('s|') ?? 0) > 0,
    forecast: forecastFromInputs({ inputs: forecastInputsOf(cells, 'f.'), asOf, months: 3 }),
    backtest: scoreBacktest({
      forecast: forecastFromInputs({ inputs: forecastInputsOf(cells, 'b.'), asOf: cutoff, months: HELD_OUT_MONTHS }),
      actual: months.slice(0, HELD_OUT_MONTHS),
      naive: months.slice(HELD_OUT_MONTHS),
      asOf,
    }),
  };
}

type Catalogue = { id: string; companyId: string | null }[];

export async function loadForecastCatalogue(database: Database): Promise<Catalogue> {
  return rowsOf<{ id: string; companyId: string | null }>(
    await database.execute(sql`select id, company_id as "companyId" from products order by id`),
  );
}

/** The products of a set key (null for `*`: every dispensing), from the catalogue. */
function setProductIds(setKey: string, catalogue: Catalogue): string[] | null {
  if (setKey === '*') return null;
  if (setKey.startsWith('p:')) return [setKey.slice(2)];
  return catalogue.filter((product) => product.companyId === setKey.slice(2)).map((product) => product.id);
}

/**
 * The set key of a forecast's products: null (every dispensing) is `*`; one product `p:<id>`; exactly one
 * company's products `c:<id>`; any other list null (computed per request).
 */
export function forecastSetKeyOf(productIds: readonly string[] | null, catalogue: Catalogue): string | null {
  if (productIds === null) return '*';
  const ids = [...new Set(productIds)];
  if (ids.length === 1) return `p:${ids[0]}`;
  const companies = new Set(catalogue.filter((product) => ids.includes(product.id)).map((product) => product.companyId));
  if (companies.size !== 1) return null;
  const [companyId] = companies;
  if (companyId === null || companyId === undefined) return null;
  const own = setProductIds(`c:${companyId}`, catalogue)!;
  return own.length === ids.length && own.every((id) => ids.includes(id)) ? `c:${companyId}` : null;
}

const baseKeyOf = (setKey: string, asOf: number) => `${setKey}@${isoFromDayNumber(asOf)}`;
const sameProducts = (left: readonly string[] | null, right: readonly string[] | null) =>
  left === null || right === null ? left === right : [...left].sort().join('\n') === [...right].sort().join('\n');
/** The dedupe key of the refresh a view queues for a base it registers. */
export const forecastRefreshKeyOf = (setKey: string, asOf: number) => `${portalRefreshJobKind}:forecast:${baseKeyOf(setKey, asOf)}`;

/**
 * A set whose newest built base feeds at least this many patients is shown from it while a later as-of day is
 * built (decision 060): per request the forecast took about 45 µs a patient at 100,000 patients (4.3 s), up to
 * 95 µs under load (9.5 s), so 3,000 patients keep a per-request forecast well under a second.
 */
export const BUILT_BASE_MIN_PATIENTS = 3_000;

/**
 * The newest built as-of day of a set before `before`, with the same products, when its forecast feeds at least
 * `minPatients` patients; else null (computed per request).
 */
export async function findLatestBuiltForecastBase(options: {
  database: Database;
  setKey: string;
  productIds: readonly string[] | null;
  before: number;
  minPatients?: number;
}): Promise<number | null> {
  const [base] = rowsOf<{ asOf: string; productIds: string[] | null; patients: number | string | null }>(
    await options.database.execute(sql`select b.as_of::text as "asOf", b.product_ids as "productIds",
        (select c.n from portal_forecast_cells c where c.base_key = b.base_key and c.part = 'fit' and c.key = '') as patients
      from portal_forecast_bases b
      where b.set_key = ${options.setKey} and b.built_at is not null and b.as_of < ${isoFromDayNumber(options.before)}::date
      order by b.as_of desc limit 1`),
  );
  if (base === undefined || !sameProducts(base.productIds, options.productIds)) return null;
  return Number(base.patients ?? 0) >= (options.minPatients ?? BUILT_BASE_MIN_PATIENTS) ? dayNumberFromIso(base.asOf) : null;
}

/** Cells as "key=n;key=n" per part (one string per part, so a base's cells come back as a few rows). */
function parsePart(cells: ForecastCells, part: string, packed: string): void {
  for (const entry of packed.split(';')) {
    const separator = entry.lastIndexOf('=');
    addCell(cells, part, entry.slice(0, separator), Number(entry.slice(separator + 1)));
  }
}

/**
 * A set's summed cells at its as-of day from the pre-aggregate, or null when it cannot answer (the set is not
 * built yet or its products changed: registered and a refresh queued). Patients listed dirty are taken out and
 * added back from their fills now, in the same snapshot as the cells.
 */
export async function loadStoredForecastCells(options: {
  database: Database;
  setKey: string;
  productIds: readonly string[] | null;
  asOf: number;
  now: Date;
}): Promise<ForecastCells | null> {
  const { database, setKey, asOf, now } = options;
  const baseKey = baseKeyOf(setKey, asOf);
  const hourAgo = new Date(now.getTime() - DAY_MS / 24).toISOString();
  const [state] = rowsOf<{ built: boolean; stale: boolean; productIds: string[] | null }>(
    await database.execute(sql`select built_at is not null as built, last_used_at < ${hourAgo}::timestamptz as stale,
      product_ids as "productIds" from portal_forecast_bases where base_key = ${baseKey}`),
  );
  if (state === undefined) {
    // A view never waits for the refresh: it registers the base (its own row) and is computed per request.
    await database.execute(sql`
      insert into portal_forecast_bases (base_key, set_key, as_of, product_ids, last_used_at)
      values (${baseKey}, ${setKey}, ${isoFromDayNumber(asOf)}::date,
        ${options.productIds === null ? null : `{${options.productIds.map((id) => JSON.stringify(id)).join(',')}}`}::text[],
        ${now.toISOString()}::timestamptz)
      on conflict (base_key) do nothing`);
    await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: forecastRefreshKeyOf(setKey, asOf), payload: {} });
    return null;
  }
  if (state.stale)
    await database.execute(sql`update portal_forecast_bases set last_used_at = ${now.toISOString()}::timestamptz
      where base_key in (select base_key from portal_forecast_bases where base_key = ${baseKey} for update skip locked)`);
  if (!state.built) return null;
  if (!sameProducts(state.productIds, options.productIds)) {
    // A product moved company since the base was built: the refresh rebuilds it from the catalogue.
    await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: `${portalRefreshJobKind}:forecast:${baseKey}:moved`, payload: {} });
    return null;
  }
  // ONE statement, so one snapshot: the cells, the rows of the patients listed dirty, and that list.
  const parts = rowsOf<{ kind: number; name: string; value: string }>(
    await database.execute(sql`
      select 0 as kind, part as name, string_agg(key || '=' || n::text, ';') as value
        from portal_forecast_cells where base_key = ${baseKey} group by part
      union all select 1, patient_id::text, cells::text from portal_forecast_rows
        where as_of = ${isoFromDayNumber(asOf)}::date and patient_id in (select patient_id from portal_dirty_patients)
      union all select 2, patient_id::text, generation::text from portal_dirty_patients`),
  );
  const cells: ForecastCells = new Map();
  const dirty: string[] = [];
  let latestGeneration = 0;
  const productSet = options.productIds === null ? null : new Set(options.productIds);
  const stale: ForecastCells = new Map();
  for (const row of parts) {
    const kind = Number(row.kind);
    if (kind === 0) parsePart(cells, row.name, row.value);
    else if (kind === 1) addCells(stale, patientSetCells(JSON.parse(row.value) as Record<string, [string, number][]>, productSet));
    else {
      dirty.push(row.name);
      latestGeneration = Math.max(latestGeneration, Number(row.value));
    }
  }
  addCells(cells, stale, -1);
  if (dirty.length > 0) {
    // Patients whose fills changed since their rows were written: from their fills now.
    for (const patient of await loadForecastPatients({ database, asOf, productIds: options.productIds, patientIds: dirty }))
      addCells(cells, patientSetCells(patientProductCells(patient, asOf), productSet));
    await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: `${portalRefreshJobKind}:g${latestGeneration}`, payload: {} });
  }
  return cells;
}

/** Each set's current as-of day: the day after its latest fill on or before today (the forecast's rule). */
async function currentBases(database: Database, catalogue: Catalogue, now: Date): Promise<{ setKey: string; asOf: number }[]> {
  const today = isoFromDayNumber(dayNumberFromIso(now.toISOString().slice(0, 10)));
  const latest = rowsOf<{ productId: string | null; day: string }>(
    await database.execute(sql`select product_id as "productId", max(dispensed_on)::text as day from dispensings
      where dispensed_on <= ${today}::date group by product_id`),
  );
  const byProduct = new Map(latest.map((row) => [row.productId, dayNumberFromIso(row.day)]));
  const bases: { setKey: string; asOf: number }[] = [];
  const add = (setKey: string, days: (number | undefined)[]) => {
    const known = days.filter((day): day is number => day !== undefined);
    if (known.length > 0) bases.push({ setKey, asOf: Math.max(...known) + 1 });
  };
  add('*', [...byProduct.values()]);
  for (const companyId of new Set(catalogue.map((product) => product.companyId)))
    if (companyId !== null)
      add(
        `c:${companyId}`,
        setProductIds(`c:${companyId}`, catalogue)!.map((id) => byProduct.get(id)),
      );
  for (const product of catalogue) add(`p:${product.id}`, [byProduct.get(product.id)]);
  return bases;
}

/** Adds (sign 1) or takes out (−1) cells of a base in the database, dropping cells that reach 0. */
async function applyCells(database: Database, baseKey: string, cells: ForecastCells, sign: 1 | -1 = 1): Promise<void> {
  const entries = [...cells].map(([name, n]) => {
    const separator = name.indexOf('|');
    return { part: name.slice(0, separator), key: name.slice(separator + 1), n: sign * n };
  });
  for (let start = 0; start < entries.length; start += INSERT_BATCH * 5) {
    await database.execute(sql`
      insert into portal_forecast_cells (base_key, part, key, n)
      select ${baseKey}, part, key, n from jsonb_to_recordset(${JSON.stringify(entries.slice(start, start + INSERT_BATCH * 5))}::jsonb)
        as r(part text, key text, n integer)
      on conflict (base_key, part, key) do update set n = portal_forecast_cells.n + excluded.n`);
  }
  await database.execute(sql`delete from portal_forecast_cells where base_key = ${baseKey} and n = 0`);
}

async function insertRows(database: Database, asOf: number, rows: readonly { id: string; cells: Map<string, ForecastCells> }[]) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH).map((row) => ({
      patient_id: row.id,
      cells: Object.fromEntries([...row.cells].map(([productId, cells]) => [productId, [...cells]])),
    }));
    await database.execute(sql`
      insert into portal_forecast_rows (as_of, patient_id, cells)
      select ${isoFromDayNumber(asOf)}::date, patient_id, cells from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(patient_id uuid, cells jsonb)`);
  }
}

/**
 * Registers each set's base at its current as-of day. The refresh calls it before its long transaction too
 * (decision 060): a base it inserted uncommitted would make a view registering the same base wait for the whole
 * refresh (an insert waits for a conflicting uncommitted one); committed first, the view's insert does nothing at once.
 */
export async function registerCurrentForecastBases(database: Database, now: Date): Promise<void> {
  const catalogue = await loadForecastCatalogue(database);
  for (const base of await currentBases(database, catalogue, now)) {
    const productIds = setProductIds(base.setKey, catalogue);
    await database.execute(sql`
      insert into portal_forecast_bases (base_key, set_key, as_of, product_ids, last_used_at)
      values (${baseKeyOf(base.setKey, base.asOf)}, ${base.setKey}, ${isoFromDayNumber(base.asOf)}::date,
        ${productIds === null ? null : `{${productIds.map((id) => JSON.stringify(id)).join(',')}}`}::text[], ${now.toISOString()}::timestamptz)
      on conflict (base_key) do update set last_used_at = excluded.last_used_at`);
  }
}

/**
 * The forecast part of the refresh (called by refreshPortalPatientSummaries in its transaction, before it clears
 * the dirty entries it read): registers each set's current as-of day and drops bases it supersedes or nobody used
 * for a week; rebuilds every as-of day with a base not built (rows from every fill, every base's cells); and for
 * the others rewrites the listed patients' rows and corrects the cells by the difference.
 */
export async function refreshForecastBases(options: {
  database: Database;
  now: Date;
  dirtyIds: readonly string[];
}): Promise<{ bases: number; built: number; rows: number }> {
  const { database, now, dirtyIds } = options;
  const catalogue = await loadForecastCatalogue(database);
  const nowIso = now.toISOString();
  await registerCurrentForecastBases(database, now);
  // A base superseded by a later as-of day of its set is never read again (a view uses the latest fill).
  await database.execute(sql`delete from portal_forecast_bases b where last_used_at < ${new Date(now.getTime() - UNUSED_BASE_DAYS * DAY_MS).toISOString()}::timestamptz
    or exists (select 1 from portal_forecast_bases n where n.set_key = b.set_key and n.as_of > b.as_of)`);
  // Row locks: a second refresh waits for this one.
  const bases = rowsOf<{ baseKey: string; setKey: string; asOf: string; built: boolean; productIds: string[] | null }>(
    await database.execute(sql`select base_key as "baseKey", set_key as "setKey", as_of::text as "asOf", built_at is not null as built,
      product_ids as "productIds" from portal_forecast_bases order by base_key for update`),
  );
  await database.execute(
    sql`delete from portal_forecast_rows r where not exists (select 1 from portal_forecast_bases b where b.as_of = r.as_of)`,
  );
  const products = new Map(bases.map((base) => [base.baseKey, setProductIds(base.setKey, catalogue)]));
  // A base whose products changed (a product moved company) is rebuilt.
  for (const base of bases) if (base.built && !sameProducts(base.productIds, products.get(base.baseKey)!)) base.built = false;
  const byDay = new Map<string, typeof bases>();
  for (const base of bases) byDay.set(base.asOf, [...(byDay.get(base.asOf) ?? []), base]);
  // Many listed patients (a large import): rebuilding the day is cheaper than correcting it patient by patient.
  const rebuildAll = dirtyIds.length > DIRTY_REBUILD_THRESHOLD;
  let built = 0;
  let rows = 0;
  for (const [day, ofDay] of byDay) {
    const asOf = dayNumberFromIso(day);
    const rebuild = rebuildAll || ofDay.some((base) => !base.built);
    if (!rebuild && dirtyIds.length === 0) continue;
    const sets = ofDay.map((base) => ({
      base,
      productSet: products.get(base.baseKey) === null ? null : new Set(products.get(base.baseKey)),
    }));
    const sums = new Map(sets.map(({ base }) => [base.baseKey, new Map() as ForecastCells]));
    if (!rebuild) {
      // Take the listed patients' old rows out of every base of the day, then add them back from their fills.
      const old = rowsOf<{ cells: Record<string, [string, number][]> }>(
        await database.execute(sql`delete from portal_forecast_rows where as_of = ${day}::date
          and patient_id = any(${`{${dirtyIds.join(',')}}`}::uuid[]) returning cells`),
      );
      for (const row of old)
        for (const { base, productSet } of sets) addCells(sums.get(base.baseKey)!, patientSetCells(row.cells, productSet), -1);
    } else {
      await database.execute(sql`delete from portal_forecast_rows where as_of = ${day}::date`);
      await database.execute(
        sql`delete from portal_forecast_cells where base_key in (${sql.join(
          ofDay.map((base) => sql`${base.baseKey}`),
          sql`, `,
        )})`,
      );
    }
    // Rows hold the products of the day's bases only (every product when '*' is among them): a base's cells never
    // read another product, and a base added to the day is unbuilt, so the day is rebuilt with it.
    const dayProducts = sets.some(({ productSet }) => productSet === null)
      ? null
      : [...new Set(sets.flatMap(({ productSet }) => [...productSet!]))];
    const patients = await loadForecastPatients({ database, asOf, productIds: dayProducts, patientIds: rebuild ? undefined : dirtyIds });
    const written = patients.map((patient) => ({ id: patient.id, cells: patientProductCells(patient, asOf) }));
    for (const row of written)
      for (const { base, productSet } of sets) addCells(sums.get(base.baseKey)!, patientSetCells(row.cells, productSet));
    await insertRows(database, asOf, written);
    rows += written.length;
    for (const { base } of sets) {
      await applyCells(database, base.baseKey, sums.get(base.baseKey)!);
      if (!base.built) {
        await database.execute(sql`update portal_forecast_bases set built_at = ${nowIso}::timestamptz,
          product_ids = ${
            products.get(base.baseKey) === null
              ? null
              : `{${products
                  .get(base.baseKey)!
                  .map((id) => JSON.stringify(id))
                  .join(',')}}`
          }::text[]
          where base_key = ${base.baseKey}`);
        built += 1;
      }
    }
  }
  return { bases: bases.length, built, rows };
}
