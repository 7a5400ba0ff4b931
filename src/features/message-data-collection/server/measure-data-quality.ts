import 'server-only';
/**
 * The data-quality checks of the message store for one selection (scope, period, filters), aggregated in
 * SQL (docs/decisions/035):
 * - outbound messages without a final status (delivered, read, failed/undelivered) 24 hours after sending;
 * - replies matched to no outbound message: a reply naming the message it answers (WhatsApp context,
 *   `reply_to_provider_message_id`) must find an outbound message of that provider id on its channel; any
 *   other reply (plain text, SMS, the demo's replies) must have an outbound message to the same patient on
 *   the same channel in the 24 hours before it — the rule the dose confirmation itself uses (decision 020);
 * - webhook events kept without effect (unknown message, unknown sender), for viewers of every patient;
 * - delivery latency (sent_at → the first "delivered" of status_history): p50, p90, p99 by percentile_cont.
 * Only counts leave this module.
 */
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client';
import { finalStatuses, summariseMessageFacts } from '@/db/queries/message-facts';
import { REPLY_WINDOW_HOURS } from '@/db/queries/message-replies';
import { periodInstants } from '@/db/queries/message-scope';
import { MINIMUM_GROUP_SIZE } from '@/db/queries/suppression';
import { messageFacts, messages, patients, webhookEvents } from '@/db/schema';
import type { Channel } from '@/lib/domain/channels';
import type { DataQualityReport, SuppressibleCount } from '../schemas';

/** How long a provider has to report a final status before a message counts as missing one. */
export const finalStatusGraceHours = 24;
/** Statuses after which nothing more is expected (Twilio says "undelivered" where WhatsApp says "failed"). */
export { finalStatuses };
/** How far back a reply without a named message looks for the message it answers (the shared reply rule's window). */
export const replyWindowHours = REPLY_WINDOW_HOURS;

const toNumber = (value: unknown) => Number(value ?? 0);

export async function measureDataQuality(options: {
  database: Database;
  /** messageConditions(...) for the selection: over messages joined to patients. */
  where: SQL;
  period: { start: number; end: number };
  /** Webhook events belong to no patient: counted only for a scope of every patient without persona or product filter. */
  webhookEvents: { channel: string | null } | null;
  suppressed: boolean;
  now: Date;
  /**
   * Read the per-message facts (docs/decisions/049), brought up to date first: the patient half of the selection
   * (messagePatientConditions, over `patients`) and its channel. Without it the checks are computed from the
   * messages (`where`), the reference the facts are tested against.
   */
  facts?: { patients: SQL | undefined; channel: Channel | null };
}): Promise<{ patients: number; report: DataQualityReport }> {
  const { database, where, suppressed } = options;
  const graceCutoff = new Date(options.now.getTime() - finalStatusGraceHours * 3_600_000);
  const outbound = alias(messages, 'answered');
  const isOutbound = sql`${messages.direction} = 'outbound'`;
  const isInbound = sql`${messages.direction} = 'inbound'`;
  const checked = sql`${isOutbound} and ${messages.sentAt} <= ${graceCutoff}`;
  const withoutFinal = sql`${checked} and ${messages.status} not in (${sql.join(
    finalStatuses.map((status) => sql`${status}`),
    sql`, `,
  )})`;
  // Whether an inbound row answers a message we hold (see the module comment for the rule). In the second
  // probe the channel is compared with IS NOT DISTINCT FROM (the same for a column that is never null) so
  // that it cannot use the (channel, reply_to) index: without fresh statistics (PGlite has no autovacuum)
  // the planner ANDs that index, which matches most rows, with the (patient_id, sent_at) one — 100× slower.
  const matched = sql`case when ${messages.replyToProviderMessageId} is not null then exists (
      select 1 from ${messages} as ${outbound} where ${outbound.channel} = ${messages.channel}
        and ${outbound.providerMessageId} = ${messages.replyToProviderMessageId} and ${outbound.direction} = 'outbound')
    else exists (
      select 1 from ${messages} as ${outbound} where ${outbound.patientId} = ${messages.patientId} and ${outbound.channel} is not distinct from ${messages.channel}
        and ${outbound.direction} = 'outbound' and ${outbound.sentAt} <= ${messages.sentAt}
        and ${outbound.sentAt} > ${messages.sentAt} - make_interval(hours => ${replyWindowHours}))
    end`;
  const hasDelivered = sql`${messages.statusHistory} @> '[{"status":"delivered"}]'::jsonb`;
  const deliveredAt = sql`(jsonb_path_query_first(${messages.statusHistory}, '$[*] ? (@.status == "delivered").at') #>> '{}')::timestamptz`;

  // Per patient first (one hash aggregate), then over patients: distinct-patient counts without a sort each.
  const perPatient = database
    .select({
      patientId: sql`${messages.patientId}`.as('patient_id'),
      checked: sql<number>`count(*) filter (where ${checked})`.as('checked'),
      withoutFinal: sql<number>`count(*) filter (where ${withoutFinal})`.as('without_final'),
      inbound: sql<number>`count(*) filter (where ${isInbound})`.as('inbound'),
      // The inbound test comes first: the match is only looked up for replies.
      unmatched: sql<number>`count(*) filter (where ${isInbound} and not (${matched}))`.as('unmatched'),
      delivered: sql<number>`count(*) filter (where ${isOutbound} and ${hasDelivered})`.as('delivered'),
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .groupBy(messages.patientId)
    .as('per_patient');
  // Latency of the delivered messages (percentile_cont ignores the nulls of the others): the history is
  // read once per message, and one sort serves the three percentiles.
  const latencies = database
    .select({ seconds: sql<number | null>`extract(epoch from (${deliveredAt} - ${messages.sentAt}))`.as('seconds') })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(and(where, isOutbound, hasDelivered))
    .as('latencies');
  const [counts, latency, events] = await Promise.all([
    options.facts !== undefined
      ? fromFacts({ database, ...options.facts, period: options.period, graceCutoff })
      : database
          .select({
            patients: sql<number>`count(*)::int`,
            checked: sql<number>`coalesce(sum(${perPatient.checked}), 0)::int`,
            checkedPatients: sql<number>`count(*) filter (where ${perPatient.checked} > 0)::int`,
            withoutFinal: sql<number>`coalesce(sum(${perPatient.withoutFinal}), 0)::int`,
            withoutFinalPatients: sql<number>`count(*) filter (where ${perPatient.withoutFinal} > 0)::int`,
            inbound: sql<number>`coalesce(sum(${perPatient.inbound}), 0)::int`,
            inboundPatients: sql<number>`count(*) filter (where ${perPatient.inbound} > 0)::int`,
            unmatched: sql<number>`coalesce(sum(${perPatient.unmatched}), 0)::int`,
            unmatchedPatients: sql<number>`count(*) filter (where ${perPatient.unmatched} > 0)::int`,
            deliveredPatients: sql<number>`count(*) filter (where ${perPatient.delivered} > 0)::int`,
          })
          .from(perPatient)
          .then((rows) => ({ counts: rows, latency: null })),
    options.facts !== undefined
      ? null
      : database
          .select({
            percentiles: sql<
              number[] | null
            >`percentile_cont(array[0.5, 0.9, 0.99]::float8[]) within group (order by ${latencies.seconds})`,
            messages: sql<number>`count(${latencies.seconds})::int`,
          })
          .from(latencies),
    options.webhookEvents === null
      ? Promise.resolve(null)
      : (() => {
          const { from, to } = periodInstants(options.period);
          const provider = options.webhookEvents.channel === null ? null : options.webhookEvents.channel === 'sms' ? 'twilio' : 'whatsapp';
          return database
            .select({
              unknownMessage: sql<number>`count(*) filter (where ${webhookEvents.outcome} = 'unknown-message')::int`,
              unknownSender: sql<number>`count(*) filter (where ${webhookEvents.outcome} = 'unknown-sender')::int`,
            })
            .from(webhookEvents)
            .where(
              and(
                gte(webhookEvents.occurredAt, from),
                lt(webhookEvents.occurredAt, to),
                inArray(webhookEvents.outcome, ['unknown-message', 'unknown-sender']),
                provider === null ? undefined : eq(webhookEvents.provider, provider),
              ),
            );
        })(),
  ]);

  const row = counts.counts[0];
  const count = (messagesCount: unknown, patientsCount: unknown): SuppressibleCount => {
    const reached = toNumber(patientsCount);
    // A zero is no group of patients: nobody can be singled out by it.
    if (suppressed && reached > 0 && reached < MINIMUM_GROUP_SIZE) return { suppressed: true };
    return { messages: toNumber(messagesCount), patients: reached };
  };
  const latencyRow = (latency ?? counts.latency ?? [])[0];
  const latencyMessages = toNumber(latencyRow?.messages);
  const latencyPatients = toNumber(row?.deliveredPatients);
  const eventRow = events === null ? null : events[0];
  return {
    patients: toNumber(row?.patients),
    report: {
      outboundChecked: count(row?.checked, row?.checkedPatients),
      withoutFinalStatus: count(row?.withoutFinal, row?.withoutFinalPatients),
      inbound: count(row?.inbound, row?.inboundPatients),
      unmatchedReplies: count(row?.unmatched, row?.unmatchedPatients),
      unmatchedWebhookEvents:
        eventRow === null ? null : { unknownMessage: toNumber(eventRow?.unknownMessage), unknownSender: toNumber(eventRow?.unknownSender) },
      latency:
        latencyMessages === 0
          ? null
          : suppressed && latencyPatients < MINIMUM_GROUP_SIZE
            ? { suppressed: true }
            : {
                p50: Number(latencyRow!.percentiles![0]),
                p90: Number(latencyRow!.percentiles![1]),
                p99: Number(latencyRow!.percentiles![2]),
                messages: latencyMessages,
                patients: latencyPatients,
              },
    },
  };
}

type CountsRow = {
  patients: number;
  checked: number;
  checkedPatients: number;
  withoutFinal: number;
  withoutFinalPatients: number;
  inbound: number;
  inboundPatients: number;
  unmatched: number;
  unmatchedPatients: number;
  deliveredPatients: number;
};
type LatencyRow = { percentiles: number[] | null; messages: number };

/**
 * The same checks from the per-message facts: whether the status is final, whether a reply matched and the
 * delivery latency are stored per message, so no JSON is read and no reply is looked up at view time.
 */
async function fromFacts(options: {
  database: Database;
  patients: SQL | undefined;
  channel: Channel | null;
  period: { start: number; end: number };
  graceCutoff: Date;
}): Promise<{ counts: CountsRow[]; latency: LatencyRow[] }> {
  const { database, graceCutoff } = options;
  const { from, to } = periodInstants(options.period);
  const f = messageFacts;
  await summariseMessageFacts({ database });
  // In a transaction of its own with room to sort a year's latencies in memory (the default 4 MB spills to disk).
  return database.transaction(async (transaction) => {
    await transaction.execute(sql`set local work_mem = '32MB'`);
    await transaction.execute(sql`set local jit = off`);
    // The viewer's patients first (hashed) and joined once; for every patient without filters no join at all (a
    // removed patient's messages went with them, and their days' facts with the refresh above).
    const people =
      options.patients === undefined
        ? null
        : sql`people as materialized (select ${patients.id} as id from ${patients} where ${options.patients})`;
    const selected = (condition: SQL) => sql`${f} ${people === null ? sql`` : sql`inner join people on people.id = ${f.patientId}`}
      where ${options.channel === null ? sql`true` : sql`${f.channel} = ${options.channel}`}
        and ${f.sentAt} >= ${from.toISOString()}::timestamptz and ${f.sentAt} < ${to.toISOString()}::timestamptz and ${condition}`;
    const outbound = sql`${f.direction} = 'outbound'`;
    const inbound = sql`${f.direction} = 'inbound'`;
    const checked = sql`${outbound} and ${f.sentAt} <= ${graceCutoff.toISOString()}::timestamptz`;
    // Two scans of the narrow facts (per patient; the delivered latencies), rather than one copy of them read twice.
    const result = (await transaction.execute(sql`with ${people === null ? sql`` : sql`${people},`}
      per_patient as (
        select ${f.patientId} as patient_id,
          count(*) filter (where ${checked}) as checked,
          count(*) filter (where ${checked} and not ${f.finalStatus}) as without_final,
          count(*) filter (where ${inbound}) as inbound,
          count(*) filter (where ${inbound} and not ${f.matched}) as unmatched,
          count(*) filter (where ${outbound} and ${f.delivered}) as delivered
        from ${selected(sql`true`)} group by ${f.patientId}
      )
      select
        (select json_build_object(
          'patients', count(*)::int,
          'checked', coalesce(sum(checked), 0)::int, 'checkedPatients', count(*) filter (where checked > 0)::int,
          'withoutFinal', coalesce(sum(without_final), 0)::int, 'withoutFinalPatients', count(*) filter (where without_final > 0)::int,
          'inbound', coalesce(sum(inbound), 0)::int, 'inboundPatients', count(*) filter (where inbound > 0)::int,
          'unmatched', coalesce(sum(unmatched), 0)::int, 'unmatchedPatients', count(*) filter (where unmatched > 0)::int,
          'deliveredPatients', count(*) filter (where delivered > 0)::int) from per_patient) as counts,
        (select json_build_object(
          'percentiles', percentile_cont(array[0.5, 0.9, 0.99]::float8[]) within group (order by ${f.deliverySeconds}),
          'messages', count(${f.deliverySeconds})::int)
          from ${selected(sql`${outbound} and ${f.delivered}`)}) as latency`)) as unknown as {
      rows: { counts: CountsRow | string; latency: LatencyRow | string }[];
    };
    const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
    const row = result.rows[0]!;
    return { counts: [parse(row.counts)], latency: [parse(row.latency)] };
  });
}
