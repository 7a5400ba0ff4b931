import 'server-only';
/**
 * The portal's dose-timing heat map (hour × weekday in the patient's own time zone) read from the daily
 * pre-aggregate `portal_dose_slots_daily` where it is exact, and from dose_events for the rest
 * (docs/decisions/039). Converting a year of dose events to local time was most of a whole-population view's
 * time (about 0.8 s of 1.1 s on the PGlite demo dataset). The aggregate is exact before
 * the earliest day listed in portal_dose_slot_changes: triggers list every (patient, day) whose dose events
 * change, and every day of a patient whose region or time zone changes, with a generation (decision 057). Then a
 * refresh is queued (once per such change).
 */
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { portalAggregateState, portalDoseSlotsDaily, portalDoseSlotsMonthly } from '@/db/schema';
import { civilFromDayNumber, dayNumberFromCivil, dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import type { Period } from '@/engine/aggregation/reporting-period';
import { MS_PER_DAY } from '@/engine/time/local-day';
import { enqueueJob } from '@/lib/server/jobs';
import { type DoseSlot, NOT_RECORDED } from '../portal-tables';
import { portalRefreshJobKind } from '../schemas';

export const doseSlotsStateKey = 'dose-slots';

/**
 * The first day the aggregate cannot answer for (null: it answers for no day), and whether a refresh is due: the
 * earlier of its through day and the earliest day listed changed (portal_dose_slot_changes, decision 057).
 * `version`: the latest change before the through day, so a view queues one refresh per change.
 */
export async function findReadableDoseSlotEnd(
  database: Database,
): Promise<{ readableEnd: number | null; version: number; stale: boolean }> {
  const [state] = (
    (await database.execute(sql`
      select s.through_day::text as "throughDay", s.dirty_from::text as "dirtyFrom",
        (select min(day)::text from portal_dose_slot_changes) as "changedFrom",
        (select max(generation) from portal_dose_slot_changes c where c.day < s.through_day) as "latest"
      from portal_aggregate_state s where s.key = ${doseSlotsStateKey}`)) as unknown as {
      rows: { throughDay: string | null; dirtyFrom: string | null; changedFrom: string | null; latest: string | number | null }[];
    }
  ).rows;
  if (state === undefined || state.throughDay === null) return { readableEnd: null, version: 0, stale: false };
  // dirty_from: set by the triggers before decision 057 (a database migrated with days marked keeps them unread).
  const days = [state.throughDay, state.dirtyFrom, state.changedFrom].filter((day): day is string => day !== null).map(dayNumberFromIso);
  return { readableEnd: Math.min(...days), version: Number(state.latest ?? 0), stale: state.latest !== null };
}

/** Direct computation over dose_events scheduled in [start, end) (day numbers, UTC midnights). */
async function directDoseSlots(database: Database, productIds: readonly string[], region: string | null, start: number, end: number) {
  const from = new Date(start * MS_PER_DAY);
  const to = new Date(end * MS_PER_DAY);
  const rows = await database.execute(sql`
    select extract(isodow from local_at)::int - 1 as weekday, extract(hour from local_at)::int as hour,
      count(*) filter (where status = 'taken')::int as confirmed,
      count(*) filter (where status in ('missed', 'skipped'))::int as missed
    from (select d.scheduled_at at time zone coalesce(p.timezone, 'UTC') as local_at, d.status
    from dose_events d join patients p on p.id = d.patient_id
    where d.product_id in (${sql.join(
      productIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and d.scheduled_at >= ${from.toISOString()}::timestamptz and d.scheduled_at < ${to.toISOString()}::timestamptz
      ${region === null ? sql`` : region === NOT_RECORDED ? sql`and p.region is null` : sql`and p.region = ${region}`}
    ) slots group by 1, 2`);
  return (rows as unknown as { rows: DoseSlot[] }).rows;
}

async function summedSlots(
  database: Database,
  table: typeof portalDoseSlotsDaily | typeof portalDoseSlotsMonthly,
  column: typeof portalDoseSlotsDaily.day | typeof portalDoseSlotsMonthly.month,
  productIds: readonly string[],
  region: string | null,
  start: number,
  end: number,
): Promise<DoseSlot[]> {
  if (start >= end) return [];
  return database
    .select({
      weekday: table.weekday,
      hour: table.hour,
      confirmed: sql<number>`sum(${table.confirmed})::int`,
      missed: sql<number>`sum(${table.missed})::int`,
    })
    .from(table)
    .where(
      and(
        inArray(table.productId, [...productIds]),
        gte(column, isoFromDayNumber(start)),
        lt(column, isoFromDayNumber(end)),
        region === null ? undefined : region === NOT_RECORDED ? isNull(table.region) : eq(table.region, region),
      ),
    )
    .groupBy(table.weekday, table.hour);
}

/** The first day of the month holding `day`, and of the month after it. */
const monthStart = (day: number) => {
  const { year, month } = civilFromDayNumber(day);
  return dayNumberFromCivil(year, month, 1);
};
const nextMonthStart = (day: number) => {
  const { year, month } = civilFromDayNumber(day);
  return month === 12 ? dayNumberFromCivil(year + 1, 1, 1) : dayNumberFromCivil(year, month + 1, 1);
};

/** [start, end) from the pre-aggregates: whole months from the monthly table, the partial months' days from the daily one. */
async function aggregatedDoseSlots(database: Database, productIds: readonly string[], region: string | null, start: number, end: number) {
  const firstWhole = monthStart(start) === start ? start : nextMonthStart(start);
  const lastWholeEnd = monthStart(end);
  const daily = (from: number, to: number) =>
    summedSlots(database, portalDoseSlotsDaily, portalDoseSlotsDaily.day, productIds, region, from, to);
  if (firstWhole >= lastWholeEnd) return daily(start, end);
  const parts = await Promise.all([
    daily(start, firstWhole),
    summedSlots(database, portalDoseSlotsMonthly, portalDoseSlotsMonthly.month, productIds, region, firstWhole, lastWholeEnd),
    daily(lastWholeEnd, end),
  ]);
  return parts.flat();
}

/**
 * Scheduled doses of the products in the period by local weekday and hour (confirmed = taken; missed = missed
 * or skipped). `source: 'direct'` computes everything from dose_events (the reference the aggregate is tested
 * equal to).
 */
export async function loadDoseSlots(options: {
  database: Database;
  productIds: readonly string[];
  region: string | null;
  period: Period;
  source?: 'aggregate' | 'direct';
}): Promise<DoseSlot[]> {
  const { database, productIds, region, period } = options;
  if (productIds.length === 0) return [];
  if (options.source === 'direct') return normalise(await directDoseSlots(database, productIds, region, period.start, period.end));
  const state = await findReadableDoseSlotEnd(database);
  if (state.stale)
    await enqueueJob({ database, kind: portalRefreshJobKind, dedupeKey: `${portalRefreshJobKind}:v${state.version}`, payload: {} });
  const split = state.readableEnd === null ? period.start : Math.min(Math.max(state.readableEnd, period.start), period.end);
  const [aggregated, direct] = await Promise.all([
    split > period.start ? aggregatedDoseSlots(database, productIds, region, period.start, split) : Promise.resolve([]),
    split < period.end ? directDoseSlots(database, productIds, region, split, period.end) : Promise.resolve([]),
  ]);
  const merged = new Map<string, DoseSlot>();
  for (const row of [...normalise(aggregated), ...normalise(direct)]) {
    const key = `${row.weekday}:${row.hour}`;
    const seen = merged.get(key);
    merged.set(key, seen === undefined ? row : { ...seen, confirmed: seen.confirmed + row.confirmed, missed: seen.missed + row.missed });
  }
  return [...merged.values()];
}

const normalise = (rows: readonly DoseSlot[]): DoseSlot[] =>
  rows
    .map((row) => ({ weekday: Number(row.weekday), hour: Number(row.hour), confirmed: Number(row.confirmed), missed: Number(row.missed) }))
    .sort((left, right) => left.weekday - right.weekday || left.hour - right.hour);

/**
 * Before the first build (decision 060): the triggers list nothing while `listing_since` is unset (seeding stays fast).
 * It is set in a transaction of its own holding the advisory lock exclusively, which a trigger that skipped listing
 * holds shared until its transaction commits: so every dose written without being listed is committed before the
 * build reads dose_events, and every dose written after is listed (and kept by generation, decision 057).
 */
async function startListingChanges(database: Database, now: Date): Promise<void> {
  const [state] = await database
    .select({ listingSince: portalAggregateState.listingSince })
    .from(portalAggregateState)
    .where(eq(portalAggregateState.key, doseSlotsStateKey));
  if (state?.listingSince != null) return;
  await database.transaction(async (transaction) => {
    await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended('portal-dose-slots-listing', 0))`);
    await transaction.execute(sql`
      insert into portal_aggregate_state (key, listing_since) values (${doseSlotsStateKey}, ${now.toISOString()}::timestamptz)
      on conflict (key) do update set listing_since = coalesce(portal_aggregate_state.listing_since, excluded.listing_since)`);
  });
}

/**
 * Rebuilds the whole aggregate for every day before `now`'s UTC day, in one transaction (readers see the old
 * one or the new one). A full rebuild rather than per-day: an import may add doses to any past day, and the
 * demo dataset rebuilds in about a second. Returns how many aggregate rows were written.
 */
export async function refreshPortalAggregates(options: {
  database: Database;
  now: Date;
  /** Tests: a write after the rebuild has aggregated and before it commits (as if committed meanwhile). */
  afterAggregated?: (transaction: Database) => Promise<void>;
}): Promise<{ throughDay: string; rows: number }> {
  const throughDay = isoFromDayNumber(Math.floor(options.now.getTime() / MS_PER_DAY));
  const through = new Date(`${throughDay}T00:00:00Z`);
  await startListingChanges(options.database, options.now);
  return options.database.transaction(async (transaction) => {
    // Locks the state row: a trigger marking a day dirty meanwhile waits and then applies to the new state.
    const [state] = await transaction
      .execute(sql`select version from portal_aggregate_state where key = ${doseSlotsStateKey} for update`)
      .then((result) => (result as unknown as { rows: { version: string | number }[] }).rows);
    // The changes listed now are what this rebuild covers: read before aggregating, deleted by generation after.
    const changes = await transaction
      .execute(sql`select patient_id as "patientId", day::text as day, generation from portal_dose_slot_changes`)
      .then((result) => (result as unknown as { rows: { patientId: string; day: string; generation: string | number }[] }).rows);
    await transaction.delete(portalDoseSlotsDaily);
    await transaction.delete(portalDoseSlotsMonthly);
    const inserted = await transaction.execute(sql`
      insert into portal_dose_slots_daily (day, product_id, region, weekday, hour, confirmed, missed)
      select day, product_id, region, extract(isodow from local_at)::int - 1, extract(hour from local_at)::int,
        count(*) filter (where status = 'taken')::int, count(*) filter (where status in ('missed', 'skipped'))::int
      from (select (d.scheduled_at at time zone 'UTC')::date as day, d.product_id, p.region, d.status,
          d.scheduled_at at time zone coalesce(p.timezone, 'UTC') as local_at
        from dose_events d join patients p on p.id = d.patient_id
        where d.product_id is not null and d.scheduled_at < ${through.toISOString()}::timestamptz) doses
      group by 1, 2, 3, 4, 5`);
    // Whole months are read from here; the month holding the through day is partial and never read whole.
    await transaction.execute(sql`
      insert into portal_dose_slots_monthly (month, product_id, region, weekday, hour, confirmed, missed)
      select date_trunc('month', day)::date, product_id, region, weekday, hour, sum(confirmed)::int, sum(missed)::int
      from portal_dose_slots_daily group by 1, 2, 3, 4, 5`);
    await options.afterAggregated?.(transaction);
    // A change committed after the rows above were read has a newer generation (or is not in `changes`): it stays.
    if (changes.length > 0)
      await transaction.execute(sql`
        delete from portal_dose_slot_changes c
        using jsonb_to_recordset(${JSON.stringify(changes.map((change) => ({ ...change, generation: Number(change.generation) })))}::jsonb)
          as r("patientId" uuid, day date, generation bigint)
        where c.patient_id = r."patientId" and c.day = r.day and c.generation <= r.generation`);
    const version = state === undefined ? 0 : Number(state.version);
    await transaction
      .insert(portalAggregateState)
      .values({ key: doseSlotsStateKey, throughDay, dirtyFrom: null, version, refreshedVersion: version, refreshedAt: options.now })
      .onConflictDoUpdate({
        target: portalAggregateState.key,
        set: { throughDay, dirtyFrom: null, refreshedVersion: version, refreshedAt: options.now },
      });
    return {
      throughDay,
      rows: Number(
        (inserted as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ??
          (inserted as unknown as { rowCount?: number }).rowCount ??
          0,
      ),
    };
  });
}
