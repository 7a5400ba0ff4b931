import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_HOURS } from '@/db/queries/message-replies';
import { messages, patients } from '@/db/schema';

/** How long after an outbound message a following inbound one counts as its reply when it names none (the shared rule's window). */
export const replyWindowHours = REPLY_WINDOW_HOURS;

export type ReplyCount = { channel: string; replied: number };
export type FailureReasonCount = { code: string; title: string | null; messages: number; patients: number };

async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Outbound messages of the period that were replied to, per channel (docs/decisions/034), by the shared reply
 * rule (src/db/queries/message-replies.ts) computed in one windowed pass: an inbound message
 * naming the outbound one's provider id (live WhatsApp context) replies to it; an inbound message naming none
 * (demo rows, SMS) replies to the patient's previous message on the channel when that was outbound and at
 * most 24 hours earlier. `windowWhere` selects the period plus one day, so a message of the period's last day
 * can find its reply; `where` the period itself. Only the narrow columns the rule needs are sorted.
 */
export async function countReplies(options: { database: Database; where: SQL; windowWhere: SQL }): Promise<ReplyCount[]> {
  const { database, where, windowWhere } = options;
  const rows = await rowsOf<ReplyCount>(
    database,
    sql`with ordered as (
        select ${messages.channel} as channel, ${messages.direction} as direction, ${messages.sentAt} as sent_at,
          ${messages.providerMessageId} as provider_message_id,
          lead(${messages.direction}) over w as next_direction, lead(${messages.sentAt}) over w as next_at,
          lead(${messages.replyToProviderMessageId} is null) over w as next_unreferenced,
          (${where}) as in_period
        from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
        where ${windowWhere}
        window w as (partition by ${messages.patientId}, ${messages.channel} order by ${messages.sentAt}, ${messages.direction} desc)
      )
      select o.channel, count(*)::int as replied
      from ordered o
        -- A join, not a correlated exists: its estimate stays low enough that the server does not JIT-compile the query.
        left join (select distinct r.channel, r.reply_to_provider_message_id as ref from ${messages} r
            where r.direction = 'inbound' and r.reply_to_provider_message_id is not null) refs
          on refs.channel = o.channel and refs.ref = o.provider_message_id
      where o.direction = 'outbound' and o.in_period and (
        (o.next_direction = 'inbound' and o.next_unreferenced and o.next_at <= o.sent_at + interval '${sql.raw(String(replyWindowHours))} hours')
        or refs.ref is not null)
      group by o.channel`,
  );
  return rows.map((row) => ({ channel: row.channel, replied: Number(row.replied) }));
}

/** The first provider error of a message's history (null: none); also the daily summaries' rule. */
export const firstMessageError = sql`jsonb_path_query_first(${messages.statusHistory}, '$[*].errors[*]')`;

/**
 * The provider's error on the selection's failed outbound messages (final status failed or undelivered:
 * errors come with a failure), by code, each with the messages and patients it concerns. A message counts
 * once, under the first error of its history (providers report one; a scalar JSON path, rather than
 * expanding the arrays, keeps the query cheap to plan).
 */
export async function countFailureReasons(options: { database: Database; where: SQL }): Promise<FailureReasonCount[]> {
  const { database, where } = options;
  const firstError = firstMessageError;
  const rows = await rowsOf<FailureReasonCount>(
    database,
    sql`select ${firstError}->>'code' as code, max(${firstError}->>'title') as title, count(*)::int as messages,
        count(distinct ${messages.patientId})::int as patients
      from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
      where ${where} and ${messages.direction} = 'outbound' and ${messages.status} in ('failed', 'undelivered')
        and jsonb_path_exists(${messages.statusHistory}, '$[*].errors[*]')
      group by 1
      order by count(*) desc, 1`,
  );
  return rows.map((row) => ({
    code: row.code ?? 'unknown',
    title: row.title,
    messages: Number(row.messages),
    patients: Number(row.patients),
  }));
}
