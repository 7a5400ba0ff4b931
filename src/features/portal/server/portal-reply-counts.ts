import 'server-only';
/**
 * The portal's missed-dose replies (docs/decisions/039, 061): inbound replies of the patients ever dispensed one of
 * the chosen products, in the period, grouped by distinct reply and read by the engine's classifier.
 *
 * Pre-aggregate (decision 061): the counts per patient, UTC day and distinct reply (portal_reply_days) and per
 * calendar month (portal_reply_months), written by the refresh job for the patients triggers list in
 * portal_reply_dirty_patients. A view reads in ONE statement (one snapshot) the whole months of its period from the
 * monthly counts, the partial months' days from the daily ones, and the listed patients' replies from messages —
 * each patient from one source only — so its figures equal the direct query whatever was written since the refresh.
 * Replies are tied to patients, not products: scope and region are the patients' current ones, joined at read.
 */
import { and, eq, exists, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { ReportingPeriod } from '@/db/queries/reporting-period';
import { dispensings, messages, patients } from '@/db/schema';
import { interpretInbound, type MissReason } from '@/engine/messaging';
import { MS_PER_DAY } from '@/engine/time/local-day';
import { civilFromDayNumber, dayNumberFromCivil } from '@/engine/adherence/day-number';
import type { InboundReading } from '@/lib/domain/message-records';
import { enqueueJob } from '@/lib/server/jobs';
import { type MissedReasonKey, NOT_RECORDED, type ReasonCount } from '../portal-tables';
import { portalRefreshJobKind } from '../schemas';

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** An arbitrary constant naming the refresh's advisory lock (one refresh of the counts at a time). */
const refreshLock = 61_061;

/** md5 of a reply's text and stored reading (as message_facts' reply key, decision 049). */
const replyKeyOf = sql.raw(`md5(coalesce(m.reply_text, '') || chr(1) || coalesce(m.inbound_reading::text, ''))`);
/** A reply the portal counts: inbound, with a text or a stored reading. */
const countedReply = sql.raw(`m.direction = 'inbound' and coalesce(m.reply_text, m.inbound_reading::text) is not null`);
const utcDayOf = sql.raw(`floor(extract(epoch from m.sent_at) / 86400)::int`);

/** The day number of the first day of the month holding `day`. */
function monthStart(day: number): number {
  const { year, month } = civilFromDayNumber(day);
  return dayNumberFromCivil(year, month, 1);
}

/** The period's whole calendar months [from, to) (empty when from >= to); the days outside them are partial. */
export function wholeMonthsOf(period: ReportingPeriod): { from: number; to: number } {
  const first = monthStart(period.start) === period.start ? period.start : monthStart(monthStart(period.start) + 31);
  const last = monthStart(period.end);
  return first < last ? { from: first, to: last } : { from: period.end, to: period.end };
}

export type ReplyGroup = { replyText: string | null; inboundReading: InboundReading | string | null; replies: number };

/** Whose replies, over which period: the products' patients, in a region (null: all; NOT_RECORDED: none recorded). */
type ReplyScope = {
  database: Database;
  productIds: readonly string[];
  region: string | null;
  period: ReportingPeriod;
};

/** The scope, read from the pre-aggregate (the default) or ('direct') from the messages themselves. */
type ReplySource = ReplyScope & { source?: 'aggregate' | 'direct' };

/** The missed-dose reasons of the scope's replies in the period: from the pre-aggregate, or ('direct') from messages. */
export async function loadMissedDoseReasons(options: ReplySource): Promise<ReasonCount[]> {
  const groups = await loadReplyGroups(options);
  const reasons = new Map<MissedReasonKey, number>();
  for (const group of groups) {
    const reading = typeof group.inboundReading === 'string' ? (JSON.parse(group.inboundReading) as InboundReading) : group.inboundReading;
    const reason = missedReasonOf(group.replyText, reading);
    if (reason !== null) reasons.set(reason, (reasons.get(reason) ?? 0) + Number(group.replies));
  }
  return [...reasons].map(([reason, replies]) => ({ reason, replies }));
}

/** The scope's replies in the period grouped by distinct reply (the same reply may come in two groups). */
export async function loadReplyGroups(options: ReplySource): Promise<ReplyGroup[]> {
  return options.source === 'direct' ? loadReplyGroupsDirect(options) : loadReplyGroupsCounted(options);
}

/** The reference: a year of the scope's inbound messages grouped by text (decision 039's query, unchanged). */
async function loadReplyGroupsDirect(options: ReplyScope): Promise<ReplyGroup[]> {
  const { database, productIds, period } = options;
  const region =
    options.region === null
      ? undefined
      : options.region === NOT_RECORDED
        ? sql`${patients.region} is null`
        : eq(patients.region, options.region);
  const dispensedInScope = exists(
    database
      .select({ one: sql`1` })
      .from(dispensings)
      .where(and(eq(dispensings.patientId, patients.id), inArray(dispensings.productId, [...productIds]))),
  );
  return database
    .select({ replyText: messages.replyText, inboundReading: messages.inboundReading, replies: sql<number>`count(*)::int` })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(
      and(
        eq(messages.direction, 'inbound'),
        isNotNull(sql`coalesce(${messages.replyText}, ${messages.inboundReading}::text)`),
        gte(messages.sentAt, new Date(period.start * MS_PER_DAY)),
        lt(messages.sentAt, new Date(period.end * MS_PER_DAY)),
        region,
        dispensedInScope,
      ),
    )
    .groupBy(messages.replyText, messages.inboundReading);
}

async function loadReplyGroupsCounted(options: ReplyScope): Promise<ReplyGroup[]> {
  const { database, productIds, period } = options;
  if (productIds.length === 0) return [];
  const months = wholeMonthsOf(period);
  const inRegion =
    options.region === null ? sql`true` : options.region === NOT_RECORDED ? sql`p.region is null` : sql`p.region = ${options.region}`;
  const products = sql.join(
    productIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const from = new Date(period.start * MS_PER_DAY).toISOString();
  const to = new Date(period.end * MS_PER_DAY).toISOString();
  // ONE statement, so one snapshot: the counts of patients not listed dirty, the listed patients' replies from
  // messages, and the list's size and latest generation (the last row).
  const rows = rowsOf<{
    reply_text: string | null;
    inbound_reading: InboundReading | string | null;
    replies: number;
    generation: string | null;
  }>(
    await database.execute(sql`
      with scoped as materialized (
        select p.id from patients p
        where ${inRegion} and exists (select 1 from dispensings d where d.patient_id = p.id and d.product_id in (${products}))
      ),
      counted as (
        select c.reply_key, c.replies from portal_reply_months c join scoped s on s.id = c.patient_id
        where c.month >= ${months.from} and c.month < ${months.to}
          and c.patient_id not in (select patient_id from portal_reply_dirty_patients)
        union all
        select c.reply_key, c.replies from portal_reply_days c join scoped s on s.id = c.patient_id
        where ((c.day >= ${period.start} and c.day < ${months.from}) or (c.day >= ${months.to} and c.day < ${period.end}))
          and c.patient_id not in (select patient_id from portal_reply_dirty_patients)
      )
      select t.reply_text, t.inbound_reading, sum(c.replies)::int as replies, null::bigint as generation
        from counted c join portal_reply_texts t on t.reply_key = c.reply_key
        group by t.reply_key, t.reply_text, t.inbound_reading
      union all
      select m.reply_text, m.inbound_reading, count(*)::int, null
        from messages m join scoped s on s.id = m.patient_id
        where m.patient_id in (select patient_id from portal_reply_dirty_patients) and ${countedReply}
          and m.sent_at >= ${from}::timestamptz and m.sent_at < ${to}::timestamptz
        group by m.reply_text, m.inbound_reading
      union all
      select null, null, count(*)::int, max(generation) from portal_reply_dirty_patients`),
  );
  const list = rows.pop();
  // Once per change: the refresh writes the listed patients' counts.
  if (list !== undefined && Number(list.replies) > 0)
    await enqueueJob({
      database,
      kind: portalRefreshJobKind,
      dedupeKey: `${portalRefreshJobKind}:replies-g${list.generation}`,
      payload: {},
    });
  return rows.map((row) => ({ replyText: row.reply_text, inboundReading: row.inbound_reading, replies: Number(row.replies) }));
}

/**
 * Rewrites the reply counts of every patient listed in portal_reply_dirty_patients and deletes the entries whose
 * generation it read — an entry a write committed meanwhile renumbered (or added) stays for the next refresh. One
 * transaction: views see the old counts with the list, or the new ones without it.
 */
export async function refreshPortalReplyCounts(options: {
  database: Database;
  /** Tests: a write after the counts are rewritten and before the list is cleared (as if committed meanwhile). */
  afterCounted?: (transaction: Database) => Promise<void>;
}): Promise<{ patients: number }> {
  return options.database.transaction(async (transaction) => {
    await transaction.execute(sql`select pg_advisory_xact_lock(${refreshLock})`);
    const listed = rowsOf<{ id: string; generation: string | number }>(
      await transaction.execute(sql`select patient_id as id, generation from portal_reply_dirty_patients`),
    );
    if (listed.length === 0) return { patients: 0 };
    const entries = sql`jsonb_to_recordset(${JSON.stringify(listed.map((entry) => ({ id: entry.id, generation: Number(entry.generation) })))}::jsonb)
      as r(id uuid, generation bigint)`;
    const ids = sql`(select r.id from ${entries})`;
    await transaction.execute(sql`delete from portal_reply_days where patient_id in ${ids}`);
    await transaction.execute(sql`delete from portal_reply_months where patient_id in ${ids}`);
    await transaction.execute(sql`insert into portal_reply_texts (reply_key, reply_text, inbound_reading)
      select distinct on (key) key, reply_text, inbound_reading from (
        select ${replyKeyOf} as key, m.reply_text, m.inbound_reading from messages m
        where m.patient_id in ${ids} and ${countedReply}
      ) replies order by key
      on conflict (reply_key) do nothing`);
    await transaction.execute(sql`insert into portal_reply_days (patient_id, day, reply_key, replies)
      select m.patient_id, ${utcDayOf}, ${replyKeyOf}, count(*)::int from messages m
      where m.patient_id in ${ids} and ${countedReply}
      group by 1, 2, 3`);
    // The month of a day: the day minus its day of the month, plus one.
    await transaction.execute(sql`insert into portal_reply_months (patient_id, month, reply_key, replies)
      select patient_id, day - extract(day from date '1970-01-01' + day)::int + 1, reply_key, sum(replies)::int
      from portal_reply_days where patient_id in ${ids}
      group by 1, 2, 3`);
    await options.afterCounted?.(transaction);
    await transaction.execute(sql`delete from portal_reply_dirty_patients d using ${entries}
      where d.patient_id = r.id and d.generation <= r.generation`);
    // A reply text no count refers to any more (its messages removed) is not kept.
    await transaction.execute(sql`delete from portal_reply_texts
      where reply_key not in (select reply_key from portal_reply_days)`);
    return { patients: listed.length };
  });
}

/**
 * A reply's missed-dose reason as the messaging loop reads it: its stored reading (live replies), else its
 * text read now by the engine (demo rows carry only text); null when the reply does not report a missed or
 * skipped dose.
 */
function missedReasonOf(replyText: string | null, reading: InboundReading | null): MissedReasonKey | null {
  const interpretation =
    reading !== null ? reading.interpretation : replyText === null ? null : interpretInbound({ kind: 'text', text: replyText });
  if (interpretation === null || interpretation.kind !== 'reply') return null;
  const reply = interpretation.reply;
  if (reply.intent !== 'missed' && reply.intent !== 'skipped') return null;
  return (reply.reason as MissReason | null) ?? 'none';
}
