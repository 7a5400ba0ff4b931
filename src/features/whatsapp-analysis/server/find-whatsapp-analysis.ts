import 'server-only';
/**
 * The message store's WhatsApp analysis (issue 16, docs/decisions/033): reply rates, time to reply, when
 * patients reply, what they reply, and how each template does, for the viewer's cohort scope, the reporting
 * period and the page's filters (channel, default WhatsApp; persona; product), through the shared message
 * scope (src/db/queries/message-scope.ts). Everything is aggregated in SQL; only counts leave this module.
 *
 * Rules (the decision records them):
 * - An outbound message is answered by the shared reply rule (src/db/queries/message-replies.ts, the one the
 *   message flow and the messaging overview count with): an inbound message quoting it
 *   (reply_to_provider_message_id; live messages), or the patient's next message on the same channel when it
 *   is inbound, quotes nothing and arrives within 24 h (the next inbound before the next outbound) — computed here in one
 *   windowed pass. Replies up to 24 h after the period's end still count for a message sent inside it.
 * - A dose is confirmed after a message when a dose_events row of the patient with status 'taken' was
 *   confirmed within 24 h after it (doses scheduled from 48 h before the period to 24 h after it).
 * - An opt-out is a STOP reply, or a consent opt-out event not made by a keyword (a keyword's event is the
 *   STOP reply itself), of a patient messaged in the selection; it is put down to the template of the last
 *   outbound message the patient received on the channel before it.
 * - Suppression: for a viewer whose aggregates are suppressed, every figure over fewer than
 *   MINIMUM_GROUP_SIZE distinct patients is hidden, and a selection of fewer patients shows none.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type Viewer } from '@/db/queries/cohort-scope';
import { REPLY_WINDOW_HOURS } from '@/db/queries/message-replies';
import { summariseMessageFacts } from '@/db/queries/message-facts';
import { messageConditions, messagePatientConditions, periodInstants, findMessageSelection } from '@/db/queries/message-scope';
import { type PeriodChoice, periodView } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE } from '@/db/queries/suppression';
import { messageFacts, messages, patients } from '@/db/schema';
import { replyTimeBins } from '@/engine/chat-export';
import { wilsonInterval } from '@/engine/statistics/trial';
import type { InboundReading } from '@/lib/domain/message-records';
import { personaNotAssigned } from '@/lib/domain/personas';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { readReplyIntent, type ReplyIntent, type ReplyReason } from '../reply-intent';
import type {
  CountFigure,
  IntentFigure,
  OptOutFigure,
  RateFigure,
  StoreAnalysis,
  StoreAnalysisFilters,
  TemplatePerformance,
  WhatsappAnalysisPage,
} from '../schemas';

const replyWindow = sql.raw(`interval '${REPLY_WINDOW_HOURS} hours'`);

type Rows<T> = { rows: T[] };

async function select<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.execute(query)) as unknown as Rows<T>).rows;
}

const toNumber = (value: unknown) => Number(value ?? 0);

/** md5 of the text and the stored reading: the key a distinct reply is read once under and joined back by. */
const replyKey = sql`md5(coalesce(${messages.replyText}, '') || chr(1) || coalesce(${messages.inboundReading}::text, ''))`;

export async function findWhatsappAnalysis(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: StoreAnalysisFilters;
  now: Date;
  /** 'facts' (the page): the per-message facts, brought up to date first; 'messages': computed from the messages (the reference the facts are tested against). */
  source?: 'facts' | 'messages';
}): Promise<WhatsappAnalysisPage> {
  const { database, actor, filters } = options;
  const source = options.source ?? 'facts';
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const selection = await findMessageSelection({ database, actor, choice: options.choice, now: options.now });
  if (selection === 'no-company') return { status: 'no-company' };
  const { scope, suppressed, period, filterOptions } = selection;
  const base = {
    status: 'ok' as const,
    period: periodView(period),
    filters,
    options: filterOptions,
    scope: scope.kind,
    suppressed,
    minimumGroupSize: MINIMUM_GROUP_SIZE,
  };
  const messageFilters = { channel: filters.channel, persona: filters.persona, productId: filters.productId };
  // One day past the period, so a reply arriving after midnight on its last day is seen; outbound messages
  // are still only those sent in the period.
  const widened = messageConditions(database, scope, { ...messageFilters, period: { start: period.start, end: period.end + 1 } });
  if (widened === null) return { ...base, patients: 0, tooFew: suppressed, analysis: null };
  const { from, to } = periodInstants({ start: period.start, end: period.end });
  const inPeriod = sql`${messages.sentAt} >= ${from.toISOString()}::timestamptz and ${messages.sentAt} < ${to.toISOString()}::timestamptz`;

  // The patient half of the selection, for the facts (not null: the scope holds someone, as widened is not null).
  const ofPatients = messagePatientConditions(database, scope, messageFilters) ?? undefined;
  if (source === 'facts') await summariseMessageFacts({ database });

  // The distinct replies (the demo has a few dozen texts), each read once with the engine and joined back. From
  // the facts: one message per distinct key, its text and reading read by id.
  const distinctReplies = await select<{ key: string; reply_text: string | null; inbound_reading: InboundReading | string | null }>(
    database,
    source === 'facts'
      ? sql`select k.reply_key as key, m.reply_text, m.inbound_reading
        from (
          select distinct on (${messageFacts.replyKey}) ${messageFacts.replyKey} as reply_key, ${messageFacts.messageId} as message_id
          from ${messageFacts} inner join ${patients} on ${eq(messageFacts.patientId, patients.id)}
          where ${and(
            ofPatients,
            eq(messageFacts.channel, filters.channel),
            eq(messageFacts.direction, 'inbound'),
            sql`${messageFacts.sentAt} >= ${from.toISOString()}::timestamptz and ${messageFacts.sentAt} < ${to.toISOString()}::timestamptz`,
          )}
          order by ${messageFacts.replyKey}, ${messageFacts.messageId}
        ) k
        inner join ${messages} m on m.id = k.message_id`
      : sql`select ${replyKey} as key, ${messages.replyText} as reply_text, ${messages.inboundReading} as inbound_reading
      from ${messages} inner join ${patients} on ${eq(messages.patientId, patients.id)}
      where ${and(widened, eq(messages.direction, 'inbound'), inPeriod)}
      group by ${messages.replyText}, ${messages.inboundReading}`,
  );
  const keys: string[] = [];
  const intents: string[] = [];
  const reasons: (string | null)[] = [];
  for (const row of distinctReplies) {
    const reading = typeof row.inbound_reading === 'string' ? (JSON.parse(row.inbound_reading) as InboundReading) : row.inbound_reading;
    const read = readReplyIntent(row.reply_text, reading);
    keys.push(row.key);
    intents.push(read.intent);
    reasons.push(read.reason);
  }

  const edges = replyTimeBins.slice(1).map((bin) => bin.fromMinutes);
  // The figures, over the CTEs scoped, outbound, inbound, template_rows and attributed (either source builds them).
  const figures = sql`select
        (select count(*) from (select distinct patient_id from scoped where sent_at < ${to.toISOString()}::timestamptz) d) as patients,
        (select json_agg(r) from (
          -- Per patient first (hash aggregates), so a group's patients are its rows: no count(distinct) sort.
          select persona, grouping(persona) as overall, sum(messages) as messages, sum(replied) as replied, count(*) as patients
          from (select persona, patient_id, count(*) as messages, count(replied_at) as replied from outbound group by persona, patient_id) pp
          group by grouping sets ((persona), ())
        ) r) as reply_rates,
        (select json_build_object(
            'count', count(*), 'patients', count(distinct patient_id),
            'median', percentile_cont(0.5) within group (order by minutes),
            'p90', percentile_cont(0.9) within group (order by minutes))
          from (select patient_id, extract(epoch from replied_at - sent_at) / 60 as minutes from outbound where replied_at is not null) t
        ) as reply_times,
        (select json_agg(b) from (
          select width_bucket(extract(epoch from replied_at - sent_at) / 60, ${sql.param(edges)}::float8[]) as bin,
            count(*) as count, count(distinct patient_id) as patients
          from outbound where replied_at is not null group by 1
        ) b) as reply_bins,
        (select json_agg(h) from (
          select extract(isodow from sent_at at time zone coalesce(timezone, 'UTC'))::int - 1 as weekday,
            extract(hour from sent_at at time zone coalesce(timezone, 'UTC'))::int as hour,
            count(*) as count, count(distinct patient_id) as patients
          from inbound group by 1, 2
        ) h) as heat_map,
        (select count(*) from inbound) as inbound,
        (select count(*) from inbound where timezone is null) as utc_fallback,
        (select json_agg(i) from (
          select intent, reason, count(*) as count, count(distinct patient_id) as patients from inbound group by intent, reason
        ) i) as intents,
        (select json_agg(t) from (
          select template_id, sum(messages) as messages, count(*) as patients, sum(replied) as replied,
            count(*) filter (where replied > 0) as replied_patients, sum(confirmed) as confirmed,
            count(*) filter (where confirmed > 0) as confirmed_patients
          from (
            select template_id, patient_id, count(*) as messages, count(replied_at) as replied,
              count(*) filter (where confirmed) as confirmed
            from template_rows group by template_id, patient_id
          ) tp group by template_id
        ) t) as templates,
        (select json_agg(a) from (
          select template_id, persona, count(*) as count, count(distinct patient_id) as patients from attributed group by template_id, persona
        ) a) as opt_outs`;
  const fromMessages = sql`with scoped as (
        select ${messages.id} as id, ${messages.patientId} as patient_id, ${messages.channel} as channel,
          ${messages.direction} as direction, ${messages.sentAt} as sent_at, ${messages.templateId} as template_id,
          ${messages.providerMessageId} as provider_message_id, ${messages.replyToProviderMessageId} as reply_to_provider_message_id,
          -- Only replies are read: no hash for the (many) outbound rows.
          case when ${messages.direction} = 'inbound' then ${replyKey} end as reply_key,
          coalesce(${patients.persona}, ${personaNotAssigned}) as persona, ${patients.timezone} as timezone
        from ${messages} inner join ${patients} on ${eq(messages.patientId, patients.id)}
        where ${widened}
      ),
      ordered as (
        select scoped.*,
          lead(direction) over stream as next_direction,
          lead(sent_at) over stream as next_at,
          lead(reply_to_provider_message_id is null) over stream as next_unreferenced
        from scoped
        window stream as (partition by patient_id, channel order by sent_at, id)
      ),
      outbound as (
        select o.patient_id, o.persona, o.template_id, o.sent_at,
          -- The shared reply rule (src/db/queries/message-replies.ts), set-wise: a reply quoting the message, or the
          -- patient's next message on the channel when it is inbound, quotes nothing and is within the window (no
          -- outbound of ours in between). least() skips the null of a clause that does not apply.
          least(
            case when o.provider_message_id is not null then (
              select min(i.sent_at) from ${messages} i
              where i.channel = o.channel and i.reply_to_provider_message_id = o.provider_message_id and i.direction = 'inbound'
                and i.patient_id = o.patient_id and i.sent_at >= o.sent_at
            ) end,
            case when o.next_direction = 'inbound' and o.next_unreferenced and o.next_at <= o.sent_at + ${replyWindow} then o.next_at end
          ) as replied_at
        from ordered o
        where o.direction = 'outbound' and o.sent_at >= ${from.toISOString()}::timestamptz and o.sent_at < ${to.toISOString()}::timestamptz
      ),
      inbound as (
        select s.*, k.intent, k.reason
        from scoped s
        left join unnest(${sql.param(keys)}::text[], ${sql.param(intents)}::text[], ${sql.param(reasons)}::text[]) as k(key, intent, reason)
          on k.key = s.reply_key
        where s.direction = 'inbound' and s.sent_at >= ${from.toISOString()}::timestamptz and s.sent_at < ${to.toISOString()}::timestamptz
      ),
      opt_outs as (
        select s.patient_id, s.persona, s.sent_at as at, s.channel from inbound s where s.intent = 'stop'
        union all
        select c.patient_id, p.persona, c.effective_at as at, c.channel
        from consent_events c
        join (select distinct patient_id, persona from scoped) p on p.patient_id = c.patient_id
        where not c.granted and c.source not like '%-keyword' and c.channel = ${filters.channel}
          and c.effective_at >= ${from.toISOString()}::timestamptz and c.effective_at < ${to.toISOString()}::timestamptz
      ),
      -- The first dose confirmation at or after each template message: one sort of the messages and the
      -- patients' confirmations together (a running minimum from the latest), not one index probe per message.
      confirmation_stream as (
        select patient_id, template_id, replied_at, sent_at, 0 as kind from outbound where template_id is not null
        union all
        select d.patient_id, null, null, d.confirmed_at, 1
        from dose_events d
        where d.status = 'taken' and d.confirmed_at is not null
          and d.scheduled_at >= ${from.toISOString()}::timestamptz - interval '48 hours'
          and d.scheduled_at < ${to.toISOString()}::timestamptz + interval '24 hours'
          and d.patient_id in (select patient_id from outbound)
      ),
      confirmations as (
        select kind, patient_id, template_id, replied_at, sent_at,
          min(case when kind = 1 then sent_at end) over (partition by patient_id order by sent_at desc, kind desc rows unbounded preceding)
            as next_confirmation
        from confirmation_stream
      ),
      attributed as (
        select x.patient_id, x.persona, (
          select m.template_id from ${messages} m
          where m.patient_id = x.patient_id and m.channel = x.channel and m.direction = 'outbound' and m.sent_at <= x.at
          order by m.sent_at desc limit 1
        ) as template_id
        from opt_outs x
      ),
      template_rows as (
        select template_id, patient_id, replied_at, next_confirmation < sent_at + interval '24 hours' as confirmed
        from confirmations where kind = 0
      )
      ${figures}`;

  // From the per-message facts (docs/decisions/049): the reply time and the first dose confirmation are stored
  // per message, so no window sort of the messages and the doses; the same CTEs, the same figures.
  const fromFacts = (() => {
    const f = messageFacts;
    const widenedEnd = periodInstants({ start: period.start, end: period.end + 1 }).to;
    const confirmationsFrom = sql`${from.toISOString()}::timestamptz - interval '48 hours'`;
    const confirmationsTo = sql`${to.toISOString()}::timestamptz + interval '24 hours'`;
    // The viewer's patients first (a few thousand rows, hashed), then one pass over the facts of the channel:
    // one join to patients rather than an index probe per message.
    return sql`with people as materialized (
        select ${patients.id} as id, coalesce(${patients.persona}, ${personaNotAssigned}) as persona, ${patients.timezone} as timezone
        from ${patients} where ${ofPatients ?? sql`true`}
      ),
      base as materialized (
        select ${f.patientId} as patient_id, people.persona, people.timezone, ${f.direction} as direction, ${f.sentAt} as sent_at,
          ${f.channel} as channel, ${f.templateId} as template_id, ${f.repliedAt} as replied_at, ${f.confirmedAt} as confirmed_at,
          ${f.confirmedScheduledAt} as confirmed_scheduled_at, ${f.replyKey} as reply_key
        from ${f} inner join people on people.id = ${f.patientId}
        where ${f.channel} = ${filters.channel} and ${f.sentAt} >= ${from.toISOString()}::timestamptz
          and ${f.sentAt} < ${widenedEnd.toISOString()}::timestamptz
      ),
      -- Read twice, so not copied: inlined into each reader.
      scoped as not materialized (select patient_id, sent_at, persona from base),
      outbound as (
        select patient_id, persona, template_id, sent_at, replied_at,
          -- The first confirmation within 24 hours counts when its dose was scheduled in the doses' window; when it
          -- was not (rare), another confirmed in the same 24 hours may be: looked up.
          case when confirmed_at is null then false
            when confirmed_scheduled_at >= ${confirmationsFrom} and confirmed_scheduled_at < ${confirmationsTo} then true
            else exists (select 1 from dose_events d where d.patient_id = base.patient_id and d.status = 'taken' and d.confirmed_at is not null
              and d.confirmed_at >= base.sent_at and d.confirmed_at < base.sent_at + interval '24 hours'
              and d.scheduled_at >= ${confirmationsFrom} and d.scheduled_at < ${confirmationsTo})
          end as confirmed
        from base where direction = 'outbound' and sent_at < ${to.toISOString()}::timestamptz
      ),
      inbound as (
        select b.patient_id, b.persona, b.sent_at, b.channel, b.timezone, k.intent, k.reason
        from base b
        left join unnest(${sql.param(keys)}::text[], ${sql.param(intents)}::text[], ${sql.param(reasons)}::text[]) as k(key, intent, reason)
          on k.key = b.reply_key
        where b.direction = 'inbound' and b.sent_at < ${to.toISOString()}::timestamptz
      ),
      opt_outs as (
        select s.patient_id, s.persona, s.sent_at as at, s.channel from inbound s where s.intent = 'stop'
        union all
        select c.patient_id, p.persona, c.effective_at as at, c.channel
        from consent_events c
        join (select distinct patient_id, persona from scoped) p on p.patient_id = c.patient_id
        where not c.granted and c.source not like '%-keyword' and c.channel = ${filters.channel}
          and c.effective_at >= ${from.toISOString()}::timestamptz and c.effective_at < ${to.toISOString()}::timestamptz
      ),
      attributed as (
        select x.patient_id, x.persona, (
          select m.template_id from ${messages} m
          where m.patient_id = x.patient_id and m.channel = x.channel and m.direction = 'outbound' and m.sent_at <= x.at
          order by m.sent_at desc limit 1
        ) as template_id
        from opt_outs x
      ),
      template_rows as (select template_id, patient_id, replied_at, confirmed from outbound where template_id is not null)
      ${figures}`;
  })();
  // In a transaction of its own with room to hold a year's rows in memory (the default 4 MB spills them to disk);
  // `set local` ends with it, so a pooled connection goes back unchanged.
  const [row] =
    source === 'facts'
      ? await database.transaction(async (transaction) => {
          await transaction.execute(sql`set local work_mem = '32MB'`);
          await transaction.execute(sql`set local jit = off`);
          return select<Record<string, unknown>>(transaction as unknown as Database, fromFacts);
        })
      : await select<Record<string, unknown>>(database, fromMessages);

  const patientCount = toNumber(row?.patients);
  const small = (count: number) => suppressed && count < MINIMUM_GROUP_SIZE;
  if (small(patientCount)) return { ...base, patients: null, tooFew: true, analysis: null };

  const json = <T>(value: unknown): T[] =>
    value === null || value === undefined ? [] : typeof value === 'string' ? JSON.parse(value) : (value as T[]);
  const rate = (count: number, of: number, patients: number): RateFigure => {
    if (small(patients)) return { suppressed: true };
    if (of === 0) return { suppressed: false, count, of, patients, rate: null, low: null, high: null };
    const [low, high] = wilsonInterval(count, of);
    return { suppressed: false, count, of, patients, rate: count / of, low, high };
  };
  const countFigure = (count: number, patients: number): CountFigure =>
    small(patients) ? { suppressed: true } : { suppressed: false, count, patients };

  type RateRow = { persona: string; overall: number; messages: number; replied: number; patients: number };
  const rateRows = json<RateRow>(row?.reply_rates);
  const overall = rateRows.find((entry) => toNumber(entry.overall) === 1);
  const replies = rate(toNumber(overall?.replied), toNumber(overall?.messages), toNumber(overall?.patients));
  const byPersona = rateRows
    .filter((entry) => toNumber(entry.overall) === 0)
    .map((entry) => ({
      persona: entry.persona,
      replies: rate(toNumber(entry.replied), toNumber(entry.messages), toNumber(entry.patients)),
    }))
    .sort((left, right) => left.persona.localeCompare(right.persona));

  const times = (typeof row?.reply_times === 'string' ? JSON.parse(row.reply_times) : row?.reply_times) as {
    count: number;
    patients: number;
    median: number | null;
    p90: number | null;
  } | null;
  const binRows = json<{ bin: number; count: number; patients: number }>(row?.reply_bins);
  const replyTimes =
    times === null || small(toNumber(times.patients))
      ? null
      : {
          count: toNumber(times.count),
          medianMinutes: times.median === null ? null : Number(times.median),
          p90Minutes: times.p90 === null ? null : Number(times.p90),
          bins: replyTimeBins.map((_, index) => {
            const bin = binRows.find((entry) => toNumber(entry.bin) === index);
            if (bin === undefined) return 0;
            return small(toNumber(bin.patients)) ? null : toNumber(bin.count);
          }),
        };

  const heatMap: (number | null)[][] = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const cell of json<{ weekday: number; hour: number; count: number; patients: number }>(row?.heat_map)) {
    heatMap[toNumber(cell.weekday)]![toNumber(cell.hour)] = small(toNumber(cell.patients)) ? null : toNumber(cell.count);
  }

  const intentOrder: ReplyIntent[] = ['taken', 'missed', 'question', 'stop', 'other'];
  const intentFigures: IntentFigure[] = json<{ intent: ReplyIntent | null; reason: ReplyReason | null; count: number; patients: number }>(
    row?.intents,
  )
    .map((entry) => ({
      intent: entry.intent ?? 'other',
      reason: entry.reason,
      figure: countFigure(toNumber(entry.count), toNumber(entry.patients)),
    }))
    .sort(
      (left, right) =>
        intentOrder.indexOf(left.intent) - intentOrder.indexOf(right.intent) || (left.reason ?? '').localeCompare(right.reason ?? ''),
    );

  type TemplateRow = {
    template_id: string;
    messages: number;
    patients: number;
    replied: number;
    replied_patients: number;
    confirmed: number;
    confirmed_patients: number;
  };
  const templates: TemplatePerformance[] = json<TemplateRow>(row?.templates)
    .map((entry) => {
      const hidden = small(toNumber(entry.patients));
      // A rate's group is the template's patients: its numerator is shown only when they are enough.
      return {
        templateId: entry.template_id,
        messages: hidden ? null : toNumber(entry.messages),
        patients: hidden ? null : toNumber(entry.patients),
        replies: hidden
          ? ({ suppressed: true } as const)
          : rate(toNumber(entry.replied), toNumber(entry.messages), toNumber(entry.patients)),
        doseConfirmations: hidden
          ? ({ suppressed: true } as const)
          : rate(toNumber(entry.confirmed), toNumber(entry.messages), toNumber(entry.patients)),
      };
    })
    .sort((left, right) => (right.messages ?? -1) - (left.messages ?? -1) || left.templateId.localeCompare(right.templateId));

  const optOuts: OptOutFigure[] = json<{ template_id: string | null; persona: string; count: number; patients: number }>(row?.opt_outs)
    .map((entry) => ({
      templateId: entry.template_id,
      persona: entry.persona,
      figure: countFigure(toNumber(entry.count), toNumber(entry.patients)),
    }))
    .sort((left, right) => (left.templateId ?? '').localeCompare(right.templateId ?? '') || left.persona.localeCompare(right.persona));

  const analysis: StoreAnalysis = {
    replies,
    byPersona,
    replyTimes,
    heatMap,
    heatMapUtcFallback: toNumber(row?.utc_fallback),
    inbound: toNumber(row?.inbound),
    intents: intentFigures,
    templates,
    optOuts,
  };
  return { ...base, patients: patientCount, tooFew: false, analysis };
}
