import 'server-only';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, messages, patients, webhookEvents } from '@/db/schema';
import type { InboundInterpretation } from '@/engine/messaging';
import type { MessageStatusEntry } from '@/lib/domain/message-records';
import { enqueueJob } from '@/lib/server/jobs';
import type { InboundEvent, StatusEvent, WebhookEvent } from '../webhook-events';
import { inboundMessageJobKind, outboundMessageFailedJobKind } from '@/lib/messaging-job-kinds';

/** An inbound message now stored, for whoever acts on it (consent keywords, dose answers). */
export type RecordedInbound = {
  messageId: string;
  patientId: string;
  interpretation: InboundInterpretation | null;
};

export type WebhookRecording = {
  /** Events applied now. */
  recorded: number;
  /** Events applied before (a provider's retry): nothing changed. */
  duplicates: number;
  /** Events kept for audit without effect: unknown sender, or a status of a message we do not hold. */
  unmatched: number;
  inbound: RecordedInbound[];
};

const failedStatuses = new Set(['failed', 'undelivered']);

/**
 * How far along a message is, so a late "delivered" after "read" does not move it back; a failure is final.
 * Twilio's steps are here too (queued … undelivered); a status we do not know ranks lowest.
 */
const statusRank: Readonly<Record<string, number>> = {
  accepted: 1,
  scheduled: 1,
  queued: 2,
  sending: 3,
  sent: 4,
  delivered: 5,
  read: 6,
  undelivered: 7,
  failed: 7,
};

/**
 * Applies webhook events exactly once, in one short transaction: each event's key goes into webhook_events
 * first (unique), and only the delivery that inserted it applies the effect, so a retried or concurrent
 * duplicate changes nothing. A status is appended to its message's history (kept in time order); an inbound
 * message from a known patient becomes an inbound `messages` row with the engine's reading. In the same
 * transaction, the job that acts on it is enqueued ('inbound-message-received' per inbound message,
 * 'outbound-message-failed' once per message that fails), so an event is never recorded without its follow-up
 * nor followed up twice; the webhook itself stays a few short statements.
 */
export async function recordWebhookEvents(options: { database: Database; events: readonly WebhookEvent[] }): Promise<WebhookRecording> {
  const recording: WebhookRecording = { recorded: 0, duplicates: 0, unmatched: 0, inbound: [] };
  if (options.events.length === 0) return recording;
  const [only] = options.events;
  // The common delivery — one status that is not a failure — is one statement, atomic by itself, so it needs no
  // transaction around it: most of a provider's traffic, and one round trip instead of three (`bench -- webhooks`).
  if (options.events.length === 1 && only!.kind === 'status' && !failedStatuses.has(only!.status)) {
    const outcome = await applyStatus(options.database, only!);
    if (outcome === 'duplicate') recording.duplicates += 1;
    else if (outcome === 'unmatched') recording.unmatched += 1;
    else recording.recorded += 1;
    if (outcome === 'unmatched')
      await adoptEarlyStatuses({ database: options.database, channel: only!.channel, providerMessageId: only!.providerMessageId });
    return recording;
  }
  const unmatchedStatuses: StatusEvent[] = [];
  await options.database.transaction(async (transaction) => {
    for (const event of options.events) {
      const outcome = event.kind === 'status' ? await applyStatus(transaction, event) : await applyInbound(transaction, event);
      if (outcome === 'duplicate') recording.duplicates += 1;
      else if (outcome === 'unmatched') {
        recording.unmatched += 1;
        if (event.kind === 'status') unmatchedStatuses.push(event);
      } else {
        recording.recorded += 1;
        if (outcome !== 'recorded') recording.inbound.push(outcome);
      }
    }
  });
  // Once committed, a status of a message we did not hold yet is looked for again (adoptEarlyStatuses).
  for (const event of unmatchedStatuses)
    await adoptEarlyStatuses({ database: options.database, channel: event.channel, providerMessageId: event.providerMessageId });
  return recording;
}

type Outcome = 'duplicate' | 'unmatched' | 'recorded' | RecordedInbound;

/** Inserts the event's row unless its key is there already; true when this delivery is the first. */
async function claimEvent(transaction: Database, row: typeof webhookEvents.$inferInsert): Promise<number | null> {
  const [claimed] = await transaction
    .insert(webhookEvents)
    .values(row)
    .onConflictDoNothing({ target: webhookEvents.eventKey })
    .returning({ id: webhookEvents.id });
  return claimed?.id ?? null;
}

/** statusRank as SQL, for the one-statement path (a status we do not know ranks lowest, as above). */
function statusRankSql(status: SQL): SQL {
  const cases = Object.entries(statusRank).map(([name, rank]) => sql`when ${name} then ${rank}`);
  return sql`(case ${status} ${sql.join(cases, sql` `)} else 0 end)`;
}

/** The message's history with `entry` added in time order (ties keep arrival order), as SQL over `m`. */
function historyWithEntrySql(entry: MessageStatusEntry): SQL {
  return sql`(
    select jsonb_agg(item.entry order by (item.entry->>'at')::timestamptz, item.position)
    from jsonb_array_elements(m.status_history || jsonb_build_array(${JSON.stringify(entry)}::jsonb))
      with ordinality as item(entry, position)
  )`;
}

/** The message's status after `status` arrives: moved forward by statusRank, never back. */
function statusAfterSql(status: string): SQL {
  return sql`case when ${statusRankSql(sql`${status}::text`)} > ${statusRankSql(sql`m.status`)} then ${status} else m.status end`;
}

/**
 * Statuses that arrived before the message they are about had its provider id, now applied to it. The provider can
 * answer the send and post its first status (a WhatsApp "failed", say) before the send's own update, which stores
 * the provider's id, has committed: the webhook then finds no message and records the status as 'unknown-message'.
 * Both sides call this after their own write has committed — the send after storing the id, the webhook after
 * recording a status it could not match — so whichever commits second finds the other's row (READ COMMITTED), and
 * the conditional update lets only one of them adopt each event. An adopted failure queues the SMS fallback, once
 * per message, as a matched one does.
 */
export async function adoptEarlyStatuses(options: { database: Database; channel: string; providerMessageId: string }): Promise<number> {
  const { database, channel, providerMessageId } = options;
  // Nearly always none: one indexed read (webhook_events_unknown_message_idx) instead of a transaction on every send.
  const [waiting] = await database
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.kind, 'status'),
        eq(webhookEvents.outcome, 'unknown-message'),
        eq(webhookEvents.providerMessageId, providerMessageId),
      ),
    )
    .limit(1);
  if (waiting === undefined) return 0;
  return database.transaction(async (transaction) => {
    const adopted = (await transaction.execute(sql`
      with message as (
        select id, patient_id from messages where channel = ${channel} and provider_message_id = ${providerMessageId} limit 1
      )
      update webhook_events e set outcome = 'recorded', message_id = message.id, patient_id = message.patient_id
      from message
      where e.kind = 'status' and e.outcome = 'unknown-message' and e.provider_message_id = ${providerMessageId}
      returning message.id as message_id, e.details, e.occurred_at`)) as unknown as {
      rows: { message_id: string; details: { status: string; errors?: MessageStatusEntry['errors'] }; occurred_at: Date | string }[];
    };
    for (const row of adopted.rows) {
      const at = new Date(row.occurred_at).toISOString();
      const entry: MessageStatusEntry = {
        status: row.details.status,
        at,
        ...(row.details.errors === undefined ? {} : { errors: row.details.errors }),
      };
      await transaction.execute(sql`
        update messages m set status_history = ${historyWithEntrySql(entry)}, status = ${statusAfterSql(entry.status)}
        where m.id = ${row.message_id}`);
      if (failedStatuses.has(entry.status))
        await enqueueJob({
          database: transaction,
          kind: outboundMessageFailedJobKind,
          payload: { messageId: row.message_id },
          dedupeKey: `${outboundMessageFailedJobKind}:${row.message_id}`,
        });
    }
    return adopted.rows.length;
  });
}

/**
 * Applies one status in a single statement: claims the event key (or finds it taken), then appends the entry to
 * the message's history in time order and moves its status forward (never back: statusRank). The UPDATE re-reads
 * the row once it holds the row's lock (PostgreSQL's READ COMMITTED rule), so two statuses of one message arriving
 * together both land, and it takes only the lock an update of non-key columns needs, which the event row's foreign
 * key (KEY SHARE) does not block. A failure also queues the SMS fallback, once per message (its dedupe key); the
 * caller runs a failure inside its transaction, so the job and the event are stored together.
 */
async function applyStatus(database: Database, event: StatusEvent): Promise<Outcome> {
  const errors = event.errors.length > 0 ? { errors: event.errors } : {};
  const entry: MessageStatusEntry = { status: event.status, at: event.at.toISOString(), ...errors };
  const details = { status: event.status, ...errors };
  const result = (await database.execute(sql`
    with known as (
      select id, patient_id from messages
      where channel = ${event.channel} and provider_message_id = ${event.providerMessageId}
    ), claimed as (
      insert into webhook_events (provider, event_key, kind, provider_message_id, outcome, patient_id, message_id, details, occurred_at)
      select ${event.provider}, ${event.eventKey}, 'status', ${event.providerMessageId},
             case when known.id is null then 'unknown-message' else 'recorded' end,
             known.patient_id, known.id, ${JSON.stringify(details)}::jsonb, ${event.at.toISOString()}::timestamptz
      from (select 1) as one left join known on true
      on conflict (event_key) do nothing
      returning message_id
    ), updated as (
      update messages m set status_history = ${historyWithEntrySql(entry)}, status = ${statusAfterSql(event.status)}
      from claimed
      where m.id = claimed.message_id
      returning m.id
    )
    select (select count(*) from claimed)::int as claimed, (select id from updated limit 1) as message_id`)) as unknown as {
    rows: { claimed: number; message_id: string | null }[];
  };
  const [row] = result.rows;
  if (row === undefined || row.claimed === 0) return 'duplicate';
  if (row.message_id === null) return 'unmatched';
  // Failed then undelivered (Twilio), or a retried failure under another key: the dedupe key keeps it to one job.
  if (failedStatuses.has(event.status)) {
    await enqueueJob({
      database,
      kind: outboundMessageFailedJobKind,
      payload: { messageId: row.message_id },
      dedupeKey: `${outboundMessageFailedJobKind}:${row.message_id}`,
    });
  }
  return 'recorded';
}

/** The patient whose account's verified number is this one (digits compared); null if none or more than one. */
async function findPatientByPhone(transaction: Database, digits: string): Promise<string | null> {
  if (digits === '') return null;
  const found = await transaction
    .select({ id: patients.id })
    .from(patients)
    .innerJoin(authUsers, eq(authUsers.id, patients.userId))
    // Only a number the patient proved (an SMS code): anyone can type someone else's number into a profile.
    // The same expression and predicate as the partial index auth_users_verified_phone_digits_idx, so it is used.
    .where(and(sql`${authUsers.phoneNumberVerified}`, sql`regexp_replace(${authUsers.phoneNumber}, '[^0-9]', '', 'g') = ${digits}`))
    .limit(2);
  return found.length === 1 ? found[0]!.id : null;
}

async function applyInbound(transaction: Database, event: InboundEvent): Promise<Outcome> {
  const patientId = await findPatientByPhone(transaction, event.sender);
  const claimed = await claimEvent(transaction, {
    provider: event.provider,
    eventKey: event.eventKey,
    kind: 'inbound',
    providerMessageId: event.providerMessageId,
    outcome: patientId === null ? 'unknown-sender' : 'recorded',
    patientId,
    // The number is kept only when nobody matched it: the patient link says who it was otherwise.
    sender: patientId === null ? event.sender : null,
    details: { content: event.reading.content.kind, interpretation: event.reading.interpretation },
    occurredAt: event.at,
  });
  if (claimed === null) return 'duplicate';
  if (patientId === null) return 'unmatched';
  const [message] = await transaction
    .insert(messages)
    .values({
      patientId,
      channel: event.channel,
      direction: 'inbound',
      body: event.body,
      sentAt: event.at,
      status: 'received',
      statusHistory: [{ status: 'received', at: event.at.toISOString() }],
      providerMessageId: event.providerMessageId,
      replyToProviderMessageId: event.replyToProviderMessageId,
      inboundReading: event.reading,
      source: event.channel,
      sourceRecordId: event.providerMessageId,
    })
    .returning({ id: messages.id });
  await transaction.update(webhookEvents).set({ messageId: message!.id }).where(eq(webhookEvents.id, claimed));
  await enqueueJob({
    database: transaction,
    kind: inboundMessageJobKind,
    payload: { messageId: message!.id },
    dedupeKey: `${inboundMessageJobKind}:${message!.id}`,
  });
  return { messageId: message!.id, patientId, interpretation: event.reading.interpretation };
}
