import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, policyDecisions } from '@/db/schema';
import { AppError } from '@/lib/errors';
import type { SendOutcome } from '../schemas';
import type { ChannelAdapters } from './channel-adapter';
import type { ResolveTemplate } from './compose-message';
import { hasConsent, loadDecision, prepareDecisionMessage } from './decision-context';
import { claimOutboundMessage, deliverClaimedMessage, e164, failedStatuses, outboundMessageSource } from './outbound-messages';

/**
 * The 'outbound-message-failed' job: a WhatsApp message of a decision that the provider later reported failed
 * (status webhook) goes again by SMS, when the patient consents to SMS for that purpose now. Once: the SMS
 * row's unique key (decision, channel) is the claim, so a repeated job or a second failure report sends nothing.
 * The SMS says what the WhatsApp message said (same template version and language).
 */
export async function sendFallbackSms(options: {
  database: Database;
  messageId: string;
  now: Date;
  adapters: ChannelAdapters;
  resolveTemplate: ResolveTemplate;
  senderLabel?: string;
}): Promise<SendOutcome> {
  const { database, now } = options;
  const [failed] = await database
    .select({
      channel: messages.channel,
      direction: messages.direction,
      status: messages.status,
      decisionId: messages.policyDecisionId,
      templateLanguage: messages.templateLanguage,
    })
    .from(messages)
    .where(eq(messages.id, options.messageId));
  if (failed === undefined) throw new AppError('not_found', `messageId: no message ${options.messageId}.`);
  if (failed.channel !== 'whatsapp' || failed.direction !== 'outbound') return { outcome: 'skipped', reason: 'not-whatsapp-outbound' };
  if (!failedStatuses.has(failed.status)) return { outcome: 'skipped', reason: 'not-failed' };
  if (failed.decisionId === null) return { outcome: 'skipped', reason: 'no-decision' };
  const decision = await loadDecision(database, failed.decisionId);
  if (decision === null) return { outcome: 'skipped', reason: 'no-decision' };

  const note = async (reason: string) => {
    await database.update(policyDecisions).set({ statusReason: reason }).where(eq(policyDecisions.id, decision.id));
  };
  const prepared = await prepareDecisionMessage({
    database,
    decision,
    resolveTemplate: options.resolveTemplate,
    senderLabel: options.senderLabel ?? 'Medaptive',
    ...(failed.templateLanguage === null ? {} : { language: failed.templateLanguage }),
  });
  if (!prepared.ok) {
    await note(`whatsapp-failed; ${prepared.reason}`);
    return { outcome: 'not-sent', reason: prepared.reason };
  }
  if (!(await hasConsent({ database, patientId: decision.patientId, channel: 'sms', purpose: prepared.purpose, now }))) {
    await note('whatsapp-failed; no-sms-consent');
    return { outcome: 'not-sent', reason: 'no-sms-consent' };
  }
  const claim = await claimOutboundMessage(database, {
    patientId: decision.patientId,
    channel: 'sms',
    direction: 'outbound',
    category: decision.category,
    framing: decision.framing,
    templateId: decision.templateId,
    body: prepared.composed.smsText,
    sentAt: now,
    status: 'sending',
    policyDecisionId: decision.id,
    templateLanguage: prepared.template.language,
    templateVersion: prepared.template.version,
    source: outboundMessageSource,
    sourceRecordId: `decision:${decision.id}:sms`,
  });
  if (!claim.claimed) return { outcome: 'skipped', reason: 'sms-already-sent' };
  const result = await deliverClaimedMessage({
    database,
    messageId: claim.id,
    adapter: options.adapters.sms,
    message: { to: e164(prepared.contact.phoneNumber), channel: 'sms', body: prepared.composed.smsText },
    now,
  });
  if (!result.ok) {
    const reason = result.error.uncertain ? `${result.error.reason}-uncertain` : result.error.reason;
    await note(`whatsapp-failed; ${reason}`);
    return { outcome: 'not-sent', reason };
  }
  await database
    .update(policyDecisions)
    .set({ status: 'sent', statusReason: 'sms-fallback: whatsapp-failed' })
    .where(and(eq(policyDecisions.id, decision.id)));
  return { outcome: 'sent', channel: 'sms', messageId: result.messageId, form: 'sms', fallbackFrom: 'whatsapp-failed' };
}
