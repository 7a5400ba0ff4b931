import 'server-only';
import { and, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { consentEvents, messages, patients } from '@/db/schema';
import { matchKeyword } from '@/engine/messaging';
import type { Channel } from '@/lib/domain/channels';
import { consentChannels } from '@/lib/domain/consent';
import type { OptOutSourceClass } from '../schemas';

export type OptOutCount = {
  week: string | null;
  channel: string | null;
  purpose: string | null;
  source: OptOutSourceClass;
  events: number;
  patients: number;
};

export type StopReplyCount = { week: string; channel: string; replies: number; patients: number };

// A literal, not parameters: the grouped and the selected expression must be the same text.
const sourceClass = sql<OptOutSourceClass>`case when ${consentEvents.source} in ('sms-keyword', 'whatsapp-keyword', 'app-keyword') then 'keyword'
  when ${consentEvents.source} = 'profile' then 'profile' when ${consentEvents.source} = 'clinician' then 'clinician' else 'other' end`;

/**
 * Opt-outs recorded in the consent ledger in the period (events with granted false, by when they took
 * effect), per ISO week and source, and per channel, purpose and source; each with its distinct patients.
 * `patientWhere` is the viewer's scope with the persona and product filters; a channel filter narrows the
 * ledger's channel (e-mail has no consent channel: nothing).
 */
export async function countConsentOptOuts(options: {
  database: Database;
  patientWhere: SQL | undefined;
  channel: Channel | null;
  from: Date;
  to: Date;
}): Promise<OptOutCount[]> {
  const { database, channel } = options;
  if (channel !== null && !(consentChannels as readonly string[]).includes(channel)) return [];
  const week = sql`to_char(date_trunc('week', ${consentEvents.effectiveAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await database
    .select({
      week: sql<string | null>`${week}`,
      channel: consentEvents.channel,
      purpose: consentEvents.purpose,
      source: sourceClass,
      level: sql<number>`grouping(${week})::int`,
      events: sql<number>`count(*)::int`,
      patients: sql<number>`count(distinct ${consentEvents.patientId})::int`,
    })
    .from(consentEvents)
    .innerJoin(patients, eq(patients.id, consentEvents.patientId))
    .where(
      and(
        options.patientWhere,
        eq(consentEvents.granted, false),
        gte(consentEvents.effectiveAt, options.from),
        lt(consentEvents.effectiveAt, options.to),
        channel === null ? undefined : eq(consentEvents.channel, channel as (typeof consentChannels)[number]),
      ),
    )
    .groupBy(sql`grouping sets ((${week}, ${sourceClass}), (${consentEvents.channel}, ${consentEvents.purpose}, ${sourceClass}))`);
  return rows.map((row) => {
    const byWeek = Number(row.level) === 0;
    return {
      week: byWeek ? row.week : null,
      channel: byWeek ? null : row.channel,
      purpose: byWeek ? null : row.purpose,
      source: row.source,
      events: Number(row.events),
      patients: Number(row.patients),
    };
  });
}

/**
 * Distinct patients per ISO week and channel among the selection's STOP replies (live inbound messages read
 * as an opt-out keyword, and demo replies with one of `stopTexts`), for suppression.
 */
export async function countStopReplyPatients(options: { database: Database; where: SQL; stopTexts: string[] }): Promise<StopReplyCount[]> {
  const { database, where, stopTexts } = options;
  const week = sql`to_char(date_trunc('week', ${messages.sentAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await database
    .select({
      week: sql<string>`${week}`,
      channel: messages.channel,
      replies: sql<number>`count(*)::int`,
      patients: sql<number>`count(distinct ${messages.patientId})::int`,
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(
      and(
        where,
        eq(messages.direction, 'inbound'),
        or(
          sql`${messages.inboundReading}->'interpretation'->>'kind' = 'keyword' and ${messages.inboundReading}->'interpretation'->'keyword'->>'action' = 'opt-out'`,
          stopTexts.length === 0 ? undefined : and(isNull(messages.inboundReading), inArray(messages.replyText, stopTexts)),
        ),
      ),
    )
    .groupBy(week, messages.channel);
  return rows.map((row) => ({ week: row.week, channel: row.channel, replies: Number(row.replies), patients: Number(row.patients) }));
}

/** Whether a demo reply's text is an opt-out keyword (STOP, UNSUBSCRIBE, BAJA …) as the live channel reads it. */
export function isStopText(text: string): boolean {
  return matchKeyword(text)?.action === 'opt-out';
}
