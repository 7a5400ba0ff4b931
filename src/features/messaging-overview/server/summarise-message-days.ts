import 'server-only';
/**
 * Brings the daily message summaries up to date (docs/decisions/045): every UTC day the triggers marked stale
 * (message_summary_stale_days) is recomputed whole from the messages, by the same rules the direct counts use
 * (count-message-volumes.ts, count-message-outcomes.ts), then unmarked. Called before a summary is read, so a
 * page always reads summaries that match the messages: a live message or a late status or reply makes its
 * days stale and the next view recomputes just those (today's few hundred messages, not the year).
 *
 * Concurrency: one refresh at a time (a transaction-scoped advisory lock). The stale days are taken in one
 * statement and the messages read in later ones (READ COMMITTED: each statement sees what was committed
 * before it), so a message committed meanwhile is either counted now or leaves its day marked for the next
 * refresh — never lost.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_HOURS } from '@/db/queries/message-replies';
import { hasStaleDays, takeStaleDays } from '@/db/queries/stale-days';
import { messages, patients } from '@/db/schema';
import { firstMessageError } from './count-message-outcomes';
import { demoReplyText, isDelivered, isFailed, isLiveStop, isRead, messageDay, noCategory } from './count-message-volumes';

/** The patient bitmaps' length: room for every ordinal, doubling (from 1,024) so that it rarely changes. */
export function bitmapLength(topOrdinal: number): number {
  let bits = 1_024;
  while (bits <= topOrdinal) bits *= 2;
  return bits;
}

/** An arbitrary constant naming the refresh's advisory lock. */
const refreshLock = 45_045;

export async function summariseMessageDays(options: { database: Database }): Promise<{ days: number }> {
  const { database } = options;
  // Most views find nothing stale: one indexed probe, no transaction.
  if (!(await hasStaleDays(database, 'message_summary_stale_days'))) return { days: 0 };
  return database.transaction(async (transaction) => {
    await transaction.execute(sql`select pg_advisory_xact_lock(${refreshLock})`);
    // Every patient gets a bit; when the bitmaps must grow, every day's are rebuilt at the new length.
    await transaction.execute(sql`insert into message_summary_patients (patient_id, ordinal)
      select p.id, coalesce((select max(ordinal) from message_summary_patients), -1) + row_number() over (order by p.id)
      from ${patients} p where not exists (select 1 from message_summary_patients o where o.patient_id = p.id)`);
    const sizes = (await transaction.execute(sql`select coalesce((select max(ordinal) from message_summary_patients), 0) as top,
        (select length(patients) from message_day_patient_sets limit 1) as bits`)) as unknown as {
      rows: { top: number; bits: number | null }[];
    };
    const bits = bitmapLength(Number(sizes.rows[0]!.top));
    if (sizes.rows[0]!.bits !== null && Number(sizes.rows[0]!.bits) !== bits) {
      await transaction.execute(sql`insert into message_summary_stale_days (day)
        select distinct ${messageDay} from ${messages} on conflict do nothing`);
      await transaction.execute(sql`delete from message_day_patient_sets`);
    }
    const taken = await takeStaleDays(transaction, 'message_summary_stale_days');
    if (taken === null) return { days: 0 };
    // The reply rule looks up to a day past a message: the window reads the stale days and the days after them.
    const { days, stale, windowDays, from, to } = taken;
    await transaction.execute(sql`delete from message_day_summaries where day = any(${stale})`);
    await transaction.execute(sql`delete from message_day_failure_reasons where day = any(${stale})`);
    await transaction.execute(sql`delete from message_day_patient_sets where day = any(${stale})`);
    // The shared reply rule (src/db/queries/message-replies.ts) as countReplies applies it, per message.
    await transaction.execute(sql`insert into message_day_summaries
        (day, channel, direction, category, persona, organisation_id, reply_text, messages, delivered, read, failed, live_stops, replied)
      with ordered as (
        select ${messageDay} as day, ${messages.channel} as channel, ${messages.direction} as direction,
          coalesce(${messages.category}, ${sql.raw(`'${noCategory}'`)}) as category, ${patients.persona} as persona,
          ${patients.organisationId} as organisation_id, ${demoReplyText} as reply_text,
          ${isDelivered} as delivered, ${isRead} as read, ${isFailed} as failed, ${isLiveStop} as live_stop,
          ${messages.sentAt} as sent_at, ${messages.providerMessageId} as provider_message_id,
          lead(${messages.direction}) over w as next_direction, lead(${messages.sentAt}) over w as next_at,
          lead(${messages.replyToProviderMessageId} is null) over w as next_unreferenced
        from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
        where ${messages.sentAt} >= ${from}::timestamptz and ${messages.sentAt} < ${to}::timestamptz
          and ${messageDay} = any(${sql.param(windowDays)}::int[])
        window w as (partition by ${messages.patientId}, ${messages.channel} order by ${messages.sentAt}, ${messages.direction} desc)
      )
      select o.day, o.channel, o.direction, o.category, o.persona, o.organisation_id, o.reply_text, count(*)::int,
        count(*) filter (where o.delivered)::int, count(*) filter (where o.read)::int, count(*) filter (where o.failed)::int,
        count(*) filter (where o.live_stop)::int,
        count(*) filter (where o.direction = 'outbound' and (
          (o.next_direction = 'inbound' and o.next_unreferenced and o.next_at <= o.sent_at + interval '${sql.raw(String(REPLY_WINDOW_HOURS))} hours')
          or (o.provider_message_id is not null and exists (select 1 from ${messages} r where r.channel = o.channel
            and r.reply_to_provider_message_id = o.provider_message_id and r.direction = 'inbound'))))::int
      from ordered o
      where o.day = any(${stale})
      group by o.day, o.channel, o.direction, o.category, o.persona, o.organisation_id, o.reply_text`);
    await transaction.execute(sql`insert into message_day_failure_reasons (day, channel, persona, organisation_id, code, title, messages)
      select day, channel, persona, organisation_id, error->>'code', max(error->>'title'), count(*)::int
      from (
        select ${messageDay} as day, ${messages.channel} as channel, ${patients.persona} as persona,
          ${patients.organisationId} as organisation_id, ${firstMessageError} as error
        from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
        where ${messages.sentAt} >= ${from}::timestamptz and ${messages.sentAt} < ${to}::timestamptz
          and ${messageDay} = any(${stale}) and ${messages.direction} = 'outbound' and ${isFailed}
          and jsonb_path_exists(${messages.statusHistory}, '$[*].errors[*]')
      ) failed
      group by day, channel, persona, organisation_id, error->>'code'`);
    // Each day's patients per channel, direction and category, and over every category ('*').
    await transaction.execute(sql`insert into message_day_patient_sets (day, channel, direction, category, patients)
      select day, channel, direction, case when grouping(category) = 1 then '*' else category end,
        bit_or(set_bit(lpad('', ${bits}, '0')::varbit, ordinal, 1))
      from (
        select distinct ${messageDay} as day, ${messages.channel} as channel, ${messages.direction} as direction,
          coalesce(${messages.category}, ${sql.raw(`'${noCategory}'`)}) as category, o.ordinal
        from ${messages} inner join message_summary_patients o on o.patient_id = ${messages.patientId}
        where ${messages.sentAt} >= ${from}::timestamptz and ${messages.sentAt} < ${to}::timestamptz and ${messageDay} = any(${stale})
      ) scoped
      group by grouping sets ((day, channel, direction, category), (day, channel, direction))`);
    return { days: days.length };
  });
}
