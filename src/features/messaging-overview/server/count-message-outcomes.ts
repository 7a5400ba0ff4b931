import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';

/** How long after an outbound message a following inbound one counts as its reply when it names none. */
export const replyWindowHours = 24;

export type ReplyCount = { channel: string; replied: number };
export type FailureReasonCount = { code: string; title: string | null; messages: number; patients: number };

async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Outbound messages of the period that were replied to, per channel (docs/decisions/034): an inbound message
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
        window w as (partition by ${messages.patientId}, ${messages.channel} order by ${messages.sentAt}, ${messages.direction} desc, ${messages.id})
      )
      select o.channel, count(*)::int as replied
      from ordered o
      where o.direction = 'outbound' and o.in_period and (
        (o.next_direction = 'inbound' and o.next_unreferenced and o.next_at <= o.sent_at + interval '${sql.raw(String(replyWindowHours))} hours')
        or (o.provider_message_id is not null and exists (
          select 1 from ${messages} r where r.channel = o.channel and r.reply_to_provider_message_id = o.provider_message_id
            and r.direction = 'inbound')))
      group by o.channel`,
  );
  return rows.map((row) => ({ channel: row.channel, replied: Number(row.replied) }));
}

/**
 * The provider's error codes on the selection's failed outbound messages (final status failed or
 * undelivered: errors come with a failure), each with the messages and patients it concerns.
 */
export async function countFailureReasons(options: { database: Database; where: SQL }): Promise<FailureReasonCount[]> {
  const { database, where } = options;
  const rows = await rowsOf<FailureReasonCount>(
    database,
    sql`select e.error->>'code' as code, max(e.error->>'title') as title, count(distinct ${messages.id})::int as messages,
        count(distinct ${messages.patientId})::int as patients
      from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
        cross join lateral jsonb_array_elements(${messages.statusHistory}) as step(entry)
        cross join lateral jsonb_array_elements(case when jsonb_typeof(step.entry->'errors') = 'array' then step.entry->'errors' else '[]'::jsonb end) as e(error)
      where ${where} and ${messages.direction} = 'outbound' and ${messages.status} in ('failed', 'undelivered')
      group by e.error->>'code'
      order by count(distinct ${messages.id}) desc, e.error->>'code'`,
  );
  return rows.map((row) => ({
    code: row.code ?? 'unknown',
    title: row.title,
    messages: Number(row.messages),
    patients: Number(row.patients),
  }));
}
