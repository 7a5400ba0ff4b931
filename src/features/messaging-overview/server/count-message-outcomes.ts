import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';

/** How long after an outbound message a following inbound one counts as its reply when it names none. */
export const replyWindowHours = 24;

export type OutcomeCount = {
  /** null: all channels. */
  channel: string | null;
  outbound: number;
  patients: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
};

export type FailureReasonCount = { code: string; title: string | null; messages: number; patients: number };

async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Outbound messages of the period and what became of them (docs/decisions/034): delivered (a delivered or
 * read step, or that status), read, failed (final status failed or undelivered), replied. A reply is an
 * inbound message naming the outbound one's provider id (live WhatsApp context); an inbound message naming
 * none (demo rows, SMS) answers the patient's previous message on the channel when that was outbound and at
 * most 24 hours earlier. `windowWhere` selects the period plus one day, so a message of the period's last day
 * can find its reply; `where` the period itself.
 */
export async function countMessageOutcomes(options: {
  database: Database;
  where: SQL;
  windowWhere: SQL;
}): Promise<{ outcomes: OutcomeCount[]; failureReasons: FailureReasonCount[] }> {
  const { database, where, windowWhere } = options;
  const [outcomeRows, reasonRows] = await Promise.all([
    rowsOf<{ channel: string | null; level: number } & Omit<OutcomeCount, 'channel'>>(
      database,
      sql`with ordered as (
          select ${messages.id} as id, ${messages.patientId} as patient_id, ${messages.channel} as channel,
            ${messages.direction} as direction, ${messages.sentAt} as sent_at, ${messages.status} as status,
            ${messages.statusHistory} as status_history, ${messages.providerMessageId} as provider_message_id,
            lead(${messages.direction}) over w as next_direction, lead(${messages.sentAt}) over w as next_at,
            lead(${messages.replyToProviderMessageId}) over w as next_reply_to,
            (${where}) as in_period
          from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
          where ${windowWhere}
          window w as (partition by ${messages.patientId}, ${messages.channel} order by ${messages.sentAt}, ${messages.direction} desc, ${messages.id})
        )
        select o.channel, grouping(o.channel)::int as level, count(*)::int as outbound,
          count(distinct o.patient_id)::int as patients,
          count(*) filter (where o.status in ('delivered', 'read')
            or o.status_history @> '[{"status":"delivered"}]'::jsonb or o.status_history @> '[{"status":"read"}]'::jsonb)::int as delivered,
          count(*) filter (where o.status = 'read' or o.status_history @> '[{"status":"read"}]'::jsonb)::int as read,
          count(*) filter (where o.status in ('failed', 'undelivered'))::int as failed,
          count(*) filter (where
            (o.next_direction = 'inbound' and o.next_reply_to is null and o.next_at <= o.sent_at + interval '${sql.raw(String(replyWindowHours))} hours')
            or (o.provider_message_id is not null and exists (
              select 1 from ${messages} r where r.direction = 'inbound' and r.channel = o.channel
                and r.reply_to_provider_message_id = o.provider_message_id)))::int as replied
        from ordered o
        where o.direction = 'outbound' and o.in_period
        group by grouping sets ((o.channel), ())`,
    ),
    rowsOf<FailureReasonCount>(
      database,
      sql`select e.error->>'code' as code, max(e.error->>'title') as title, count(distinct ${messages.id})::int as messages,
          count(distinct ${messages.patientId})::int as patients
        from ${messages} inner join ${patients} on ${patients.id} = ${messages.patientId}
          cross join lateral jsonb_array_elements(${messages.statusHistory}) as step(entry)
          cross join lateral jsonb_array_elements(case when jsonb_typeof(step.entry->'errors') = 'array' then step.entry->'errors' else '[]'::jsonb end) as e(error)
        where ${where} and ${messages.direction} = 'outbound'
        group by e.error->>'code'
        order by count(distinct ${messages.id}) desc, e.error->>'code'`,
    ),
  ]);
  return {
    outcomes: outcomeRows.map((row) => ({
      channel: Number(row.level) === 1 ? null : row.channel,
      outbound: Number(row.outbound),
      patients: Number(row.patients),
      delivered: Number(row.delivered),
      read: Number(row.read),
      replied: Number(row.replied),
      failed: Number(row.failed),
    })),
    failureReasons: reasonRows.map((row) => ({
      code: row.code ?? 'unknown',
      title: row.title,
      messages: Number(row.messages),
      patients: Number(row.patients),
    })),
  };
}
