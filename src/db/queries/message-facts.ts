import 'server-only';
/**
 * The per-message facts (docs/decisions/049) the WhatsApp analysis and the data-quality checks read instead of a
 * year of messages: for every message, what depends on other rows — when the WhatsApp analysis's reply rule finds
 * it answered, the first dose confirmation within 24 hours after it, whether a reply matches a message we hold —
 * and what takes a JSON read — whether and when it was first delivered, the reply's intent key. Part of the
 * shared read layer: two features read them, and reading brings them up to date first.
 *
 * Freshness: triggers (hand-written SQL in migration 0021) mark the UTC days a message or a dose confirmation
 * write may have changed (message_fact_stale_days); summariseMessageFacts recomputes those days whole from the
 * messages and the dose events, by the same rules the direct computations use, and unmarks them. Called before
 * the facts are read, so a view always reads facts that match the messages; in steady state it recomputes today.
 *
 * Concurrency: one refresh at a time (a transaction-scoped advisory lock). The stale days are taken in one
 * statement and the messages read in later ones (READ COMMITTED), so a write committed meanwhile is either
 * included now or leaves its day marked for the next refresh — never lost.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_HOURS } from './message-replies';
import { hasStaleDays, takeStaleDays } from './stale-days';

/** Statuses after which nothing more is expected (Twilio says "undelivered" where WhatsApp says "failed"). */
export const finalStatuses = ['delivered', 'read', 'failed', 'undelivered'] as const;

/** md5 of a reply's text and stored reading: the key a distinct reply is read once under and joined back by. */
export const replyKeyOf = (table: string) =>
  sql.raw(`md5(coalesce(${table}.reply_text, '') || chr(1) || coalesce(${table}.inbound_reading::text, ''))`);

/** An arbitrary constant naming the refresh's advisory lock. */
const refreshLock = 49_049;
const replyWindow = sql.raw(`interval '${REPLY_WINDOW_HOURS} hours'`);

/** Brings message_facts up to date: recomputes every stale day. Returns how many days it recomputed. */
export async function summariseMessageFacts(options: { database: Database }): Promise<{ days: number }> {
  const { database } = options;
  if (!(await hasStaleDays(database, 'message_fact_stale_days'))) return { days: 0 };
  return database.transaction(async (transaction) => {
    await transaction.execute(sql`select pg_advisory_xact_lock(${refreshLock})`);
    const taken = await takeStaleDays(transaction, 'message_fact_stale_days');
    if (taken === null) return { days: 0 };
    // The reply rule's "next message" is at most a day later: the window reads the stale days and the days after.
    const { days, stale, windowDays, from, to } = taken;
    const finals = sql.join(
      finalStatuses.map((status) => sql`${status}`),
      sql`, `,
    );
    await transaction.execute(sql`delete from message_facts where day = any(${stale})`);
    await transaction.execute(sql`insert into message_facts (message_id, day, patient_id, channel, direction, sent_at, template_id,
        final_status, delivered, delivery_seconds, replied_at, confirmed_at, confirmed_scheduled_at, matched, reply_key)
      with stream as (
        select m.id, floor(extract(epoch from m.sent_at) / 86400)::int as day, m.patient_id, m.channel, m.direction, m.sent_at,
          m.template_id, m.status, m.status_history, m.provider_message_id, m.reply_to_provider_message_id, m.reply_text,
          m.inbound_reading,
          lead(m.direction) over w as next_direction, lead(m.sent_at) over w as next_at,
          lead(m.reply_to_provider_message_id is null) over w as next_unreferenced
        from messages m
        where m.sent_at >= ${from}::timestamptz and m.sent_at < ${to}::timestamptz
          and floor(extract(epoch from m.sent_at) / 86400)::int = any(${sql.param(windowDays)}::int[])
        window w as (partition by m.patient_id, m.channel order by m.sent_at, m.id)
      )
      select o.id, o.day, o.patient_id, o.channel, o.direction, o.sent_at, o.template_id,
        o.status in (${finals}),
        o.direction = 'outbound' and o.status_history @> '[{"status":"delivered"}]'::jsonb,
        case when o.direction = 'outbound' and o.status_history @> '[{"status":"delivered"}]'::jsonb then extract(epoch from (
          (jsonb_path_query_first(o.status_history, '$[*] ? (@.status == "delivered").at') #>> '{}')::timestamptz - o.sent_at)) end,
        -- The WhatsApp analysis's reply rule (src/db/queries/message-replies.ts, the stream ordered by time and id):
        -- the first reply quoting the message, or the next message on the channel when it is inbound, quotes
        -- nothing and comes within the window.
        case when o.direction = 'outbound' then least(
          case when o.provider_message_id is not null then (
            select min(i.sent_at) from messages i
            where i.channel = o.channel and i.reply_to_provider_message_id = o.provider_message_id and i.direction = 'inbound'
              and i.patient_id = o.patient_id and i.sent_at >= o.sent_at
          ) end,
          case when o.next_direction = 'inbound' and o.next_unreferenced and o.next_at <= o.sent_at + ${replyWindow} then o.next_at end
        ) end,
        c.confirmed_at, c.scheduled_at,
        -- The data-quality rule: a reply naming a message must find it; any other, a message of ours to the
        -- patient on the channel in the 24 hours before it.
        case when o.direction = 'inbound' then (case when o.reply_to_provider_message_id is not null then exists (
            select 1 from messages a where a.channel = o.channel and a.provider_message_id = o.reply_to_provider_message_id
              and a.direction = 'outbound')
          else exists (
            select 1 from messages a where a.patient_id = o.patient_id and a.channel = o.channel and a.direction = 'outbound'
              and a.sent_at <= o.sent_at and a.sent_at > o.sent_at - ${replyWindow})
          end) end,
        case when o.direction = 'inbound' then ${replyKeyOf('o')} end
      from stream o
      -- The first 'taken' confirmation at or after a template message, within 24 hours (the least scheduled time
      -- among doses confirmed at the same instant).
      left join lateral (
        select d.confirmed_at, d.scheduled_at from dose_events d
        where o.direction = 'outbound' and o.template_id is not null
          and d.patient_id = o.patient_id and d.status = 'taken' and d.confirmed_at is not null
          and d.confirmed_at >= o.sent_at and d.confirmed_at < o.sent_at + interval '24 hours'
        order by d.confirmed_at, d.scheduled_at limit 1
      ) c on true
      where o.day = any(${stale})`);
    return { days: days.length };
  });
}
