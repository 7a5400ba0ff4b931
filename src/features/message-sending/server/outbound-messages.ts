import 'server-only';
import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, dispensings, messages, patients, policyDecisions, products, regimens } from '@/db/schema';
import { adoptEarlyStatuses } from '@/features/messaging-webhooks';
import type { MessageStatusEntry } from '@/lib/domain/message-records';
import type { ChannelAdapter, OutboundContent, ProviderAcceptance } from './channel-adapter';
import { type ChannelSendError, isChannelSendError } from './channel-send-error';

/** `messages.source` of what the send path stores (inbound rows carry the channel's name). */
export const outboundMessageSource = 'live-send';

/** Statuses after which a message is known not to have reached the patient. */
export const failedStatuses: ReadonlySet<string> = new Set(['failed', 'undelivered']);

export type PatientContact = {
  patientId: string;
  language: string | null;
  preferredChannel: string | null;
  /** The verified number of the patient's account, or null (none, or not verified). */
  phoneNumber: string | null;
};

export async function findPatientContact(database: Database, patientId: string): Promise<PatientContact | null> {
  const [row] = await database
    .select({
      patientId: patients.id,
      language: patients.language,
      preferredChannel: patients.preferredChannel,
      phoneNumber: authUsers.phoneNumber,
      verified: authUsers.phoneNumberVerified,
    })
    .from(patients)
    .leftJoin(authUsers, eq(authUsers.id, patients.userId))
    .where(eq(patients.id, patientId));
  if (row === undefined) return null;
  const phoneNumber =
    row.verified === true && row.phoneNumber !== null && /^\+?[0-9]{6,15}$/.test(row.phoneNumber.replace(/[\s()-]/g, ''))
      ? row.phoneNumber
      : null;
  return { patientId: row.patientId, language: row.language, preferredChannel: row.preferredChannel, phoneNumber };
}

/** E.164 as providers want it: + and digits. */
export function e164(phoneNumber: string): string {
  return `+${phoneNumber.replace(/[^0-9]/g, '')}`;
}

/** When the patient last wrote to us on WhatsApp (opens the 24-hour customer-service window); null if never. */
export async function lastInboundWhatsAppAt(database: Database, patientId: string, now: Date): Promise<number | null> {
  const [row] = await database
    .select({ at: sql<Date | string | null>`max(${messages.sentAt})` })
    .from(messages)
    .where(
      and(
        eq(messages.patientId, patientId),
        eq(messages.channel, 'whatsapp'),
        eq(messages.direction, 'inbound'),
        lte(messages.sentAt, now),
      ),
    );
  return row?.at === null || row?.at === undefined ? null : new Date(row.at).getTime();
}

/**
 * The record's values for a template about this patient's medicine: the active regimen's product name (never a
 * code or a name we do not hold), its first dose time, and the days of supply left after the latest fill.
 * A value we cannot know stays undefined, and rendering a template that needs it refuses.
 */
export async function templateValuesOf(
  database: Database,
  patientId: string,
  localDate: string,
): Promise<{ medicine?: string; doseMinute?: number; daysOfSupplyLeft?: number }> {
  const [regimen] = await database
    .select({ productId: regimens.productId, productName: products.name, doseTimes: regimens.doseTimes })
    .from(regimens)
    .leftJoin(products, eq(products.id, regimens.productId))
    .where(
      and(
        eq(regimens.patientId, patientId),
        lte(regimens.startDate, localDate),
        or(isNull(regimens.endDate), sql`${regimens.endDate} >= ${localDate}`),
      ),
    )
    // A regimen naming a product we hold first, then the most recent.
    .orderBy(sql`${products.name} is null`, desc(regimens.startDate));
  if (regimen === undefined) return {};
  const values: { medicine?: string; doseMinute?: number; daysOfSupplyLeft?: number } = {};
  if (regimen.productName !== null) values.medicine = regimen.productName;
  const time = /^(\d{1,2}):(\d{2})/.exec(regimen.doseTimes[0] ?? '');
  if (time !== null) values.doseMinute = Number(time[1]) * 60 + Number(time[2]);
  if (regimen.productId !== null) {
    const [fill] = await database
      .select({ dispensedOn: dispensings.dispensedOn, daysSupply: dispensings.daysSupply })
      .from(dispensings)
      .where(
        and(eq(dispensings.patientId, patientId), eq(dispensings.productId, regimen.productId), lte(dispensings.dispensedOn, localDate)),
      )
      .orderBy(desc(dispensings.dispensedOn))
      .limit(1);
    if (fill !== undefined) {
      const elapsed = Math.round((Date.parse(`${localDate}T00:00:00Z`) - Date.parse(`${fill.dispensedOn}T00:00:00Z`)) / 86_400_000);
      values.daysOfSupplyLeft = Math.max(fill.daysSupply - elapsed, 0);
    }
  }
  return values;
}

export type OutboundRow = typeof messages.$inferInsert;

export type ExistingOutbound = { id: string; status: string; providerMessageId: string | null };

/**
 * Stores the message in state 'sending' before the provider is called. The unique keys (decision and channel;
 * source record) make this the claim: a second run of the job finds the row instead of sending again.
 */
export async function claimOutboundMessage(
  database: Database,
  row: OutboundRow,
): Promise<{ claimed: true; id: string } | { claimed: false; existing: ExistingOutbound }> {
  const [inserted] = await database.insert(messages).values(row).onConflictDoNothing().returning({ id: messages.id });
  if (inserted !== undefined) return { claimed: true, id: inserted.id };
  const condition =
    row.policyDecisionId !== undefined && row.policyDecisionId !== null
      ? and(eq(messages.policyDecisionId, row.policyDecisionId), eq(messages.channel, row.channel))
      : and(eq(messages.source, row.source), eq(messages.sourceRecordId, row.sourceRecordId));
  const [existing] = await database
    .select({ id: messages.id, status: messages.status, providerMessageId: messages.providerMessageId })
    .from(messages)
    .where(condition);
  if (existing === undefined) throw new Error('The outbound message could not be stored.');
  return { claimed: false, existing };
}

export type DeliveryOutcome =
  { ok: true; messageId: string; acceptance: ProviderAcceptance } | { ok: false; messageId: string; error: ChannelSendError };

/**
 * Hands a claimed message to its adapter. Accepted: the row gets the provider's id and status 'sent'.
 * Refused for good: the row is marked failed with the provider's code, and the caller may fall back.
 * No answer although the request left (`error.uncertain`): the row stays 'sending' and the caller must not
 * send the message again on any channel.
 * Passing trouble: the claim is released (the provider did not take the message) and the error rethrown,
 * so the job queue retries and the retry claims afresh.
 */
export async function deliverClaimedMessage<Channel extends 'whatsapp' | 'sms'>(options: {
  database: Database;
  messageId: string;
  adapter: ChannelAdapter<Channel>;
  message: { to: string } & Extract<OutboundContent, { channel: Channel }>;
  now: Date;
}): Promise<DeliveryOutcome> {
  const { database, messageId, now } = options;
  try {
    const acceptance = await options.adapter.send(options.message);
    const history: MessageStatusEntry[] = [{ status: 'sent', at: now.toISOString() }];
    await database
      .update(messages)
      .set({ status: 'sent', providerMessageId: acceptance.providerMessageId, statusHistory: history })
      .where(eq(messages.id, messageId));
    // A status the provider posted before this update committed was kept as 'unknown-message': applied now.
    await adoptEarlyStatuses({ database, channel: options.adapter.channel, providerMessageId: acceptance.providerMessageId });
    return { ok: true, messageId, acceptance };
  } catch (error) {
    // No answer after the request left: the message may be on its way. It stays 'sending' (never sent again,
    // never replaced by another channel) and the caller records the doubt (decision 019).
    if (isChannelSendError(error) && error.uncertain) return { ok: false, messageId, error };
    if (isChannelSendError(error) && !error.passing) {
      const history: MessageStatusEntry[] = [
        { status: 'failed', at: now.toISOString(), errors: [{ code: error.providerCode ?? `http-${error.providerHttpStatus ?? 'none'}` }] },
      ];
      await database.update(messages).set({ status: 'failed', statusHistory: history }).where(eq(messages.id, messageId));
      return { ok: false, messageId, error };
    }
    await database.delete(messages).where(and(eq(messages.id, messageId), eq(messages.status, 'sending')));
    throw error;
  }
}

/** Sets a planned decision's outcome; a decision already settled is left as it is. */
export async function settleDecision(
  database: Database,
  decisionId: string,
  outcome: { status: 'sent' | 'not-sent'; reason: string | null },
): Promise<void> {
  await database
    .update(policyDecisions)
    .set({ status: outcome.status, statusReason: outcome.reason })
    .where(and(eq(policyDecisions.id, decisionId), eq(policyDecisions.status, 'planned')));
}
