import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages } from '@/db/schema';
import { decideWhatsAppForm } from '@/engine/messaging';
import { AppError } from '@/lib/errors';
import type { SendOutcome } from '../schemas';
import type { ChannelAdapters, WhatsAppContent } from './channel-adapter';
import type { ResolveTemplate } from './compose-message';
import { type DecisionRow, hasConsent, loadDecision, prepareDecisionMessage } from './decision-context';
import {
  claimOutboundMessage,
  deliverClaimedMessage,
  e164,
  failedStatuses,
  lastInboundWhatsAppAt,
  outboundMessageSource,
  settleDecision,
} from './outbound-messages';

/** A message due more than this long ago is dropped: a reminder hours late misleads more than it helps. */
export const sendExpiryMs = 2 * 60 * 60 * 1000;

function rowOf(
  decision: DecisionRow,
  channel: 'whatsapp' | 'sms',
  body: string,
  template: { language: string; version: number },
  now: Date,
) {
  return {
    patientId: decision.patientId,
    channel,
    direction: 'outbound' as const,
    category: decision.category,
    framing: decision.framing,
    templateId: decision.templateId,
    body,
    sentAt: now,
    status: 'sending',
    policyDecisionId: decision.id,
    templateLanguage: template.language,
    templateVersion: template.version,
    source: outboundMessageSource,
    sourceRecordId: `decision:${decision.id}:${channel}`,
  };
}

/**
 * The 'message-send' job: sends a planned decision's message once (docs/decisions/019-send-path.md).
 * WhatsApp when the patient consented to it for the message's purpose (interactive buttons inside the
 * 24-hour window, the approved template outside it), else — or when WhatsApp cannot carry it or refuses
 * it for good — SMS when consented; otherwise nothing is sent and the decision says why.
 */
export async function sendDecisionMessage(options: {
  database: Database;
  decisionId: string;
  now: Date;
  adapters: ChannelAdapters;
  resolveTemplate: ResolveTemplate;
  /** Names the service at the start of each SMS (PRODUCT_NAME). */
  senderLabel?: string;
}): Promise<SendOutcome> {
  const { database, now, adapters } = options;
  const decision = await loadDecision(database, options.decisionId);
  if (decision === null) throw new AppError('not_found', `decisionId: no policy decision ${options.decisionId}.`);
  if (decision.action !== 'message') return { outcome: 'skipped', reason: 'no-message' };

  // A message already stored for the decision: a retried or repeated job. Settle from what is there, send nothing.
  const stored = await database
    .select({ id: messages.id, channel: messages.channel, status: messages.status })
    .from(messages)
    .where(eq(messages.policyDecisionId, decision.id));
  const delivered = stored.find((row) => row.status !== 'sending' && !failedStatuses.has(row.status));
  if (delivered !== undefined) {
    await settleDecision(database, decision.id, { status: 'sent', reason: null });
    return { outcome: 'skipped', reason: 'already-sent' };
  }
  if (stored.some((row) => row.status === 'sending')) {
    // An earlier run stopped between storing the message and hearing from the provider: it may have gone.
    // Sending again could send it twice, so it is not (at most once; decision 019).
    await settleDecision(database, decision.id, { status: 'not-sent', reason: 'interrupted' });
    return { outcome: 'not-sent', reason: 'interrupted' };
  }
  if (decision.status !== 'planned') return { outcome: 'skipped', reason: `decision-${decision.status}` };

  const settle = async (reason: string): Promise<SendOutcome> => {
    await settleDecision(database, decision.id, { status: 'not-sent', reason });
    return { outcome: 'not-sent', reason };
  };
  if (decision.scheduledFor !== null && now.getTime() - decision.scheduledFor.getTime() > sendExpiryMs) return settle('expired');

  const prepared = await prepareDecisionMessage({
    database,
    decision,
    resolveTemplate: options.resolveTemplate,
    senderLabel: options.senderLabel ?? 'Medaptive',
  });
  if (!prepared.ok) return settle(prepared.reason);
  const { contact, composed, template, purpose } = prepared;
  const to = e164(contact.phoneNumber);

  const whatsAppConsented = await hasConsent({ database, patientId: decision.patientId, channel: 'whatsapp', purpose, now });
  const smsConsented = await hasConsent({ database, patientId: decision.patientId, channel: 'sms', purpose, now });
  if (!whatsAppConsented && !smsConsented) return settle('no-consent');

  // Why WhatsApp was not used, when SMS carries the message instead.
  let whatsAppProblem: string | null = null;
  const triedBefore = new Set(stored.filter((row) => failedStatuses.has(row.status)).map((row) => row.channel));

  const whatsAppFirst = whatsAppConsented && !(contact.preferredChannel === 'sms' && smsConsented);
  if (whatsAppFirst && !triedBefore.has('whatsapp')) {
    const lastInboundAt = await lastInboundWhatsAppAt(database, decision.patientId, now);
    const form = decideWhatsAppForm({ now: now.getTime(), lastInboundAt, template: { approval: template.whatsApp.approval } });
    if (form.form === 'none') whatsAppProblem = `whatsapp-${form.reason}`;
    else {
      const content: WhatsAppContent = form.form === 'template' ? composed.whatsAppTemplate : composed.whatsAppInteractive;
      const claim = await claimOutboundMessage(database, rowOf(decision, 'whatsapp', composed.whatsAppText, template, now));
      if (!claim.claimed) return { outcome: 'skipped', reason: 'claimed-concurrently' };
      const result = await deliverClaimedMessage({
        database,
        messageId: claim.id,
        adapter: adapters.whatsapp,
        message: { to, channel: 'whatsapp', content },
        now,
      });
      if (result.ok) {
        await settleDecision(database, decision.id, { status: 'sent', reason: null });
        return { outcome: 'sent', channel: 'whatsapp', messageId: result.messageId, form: content.kind };
      }
      if (result.error.uncertain) return settle(`${result.error.reason}-uncertain`);
      whatsAppProblem = result.error.reason;
    }
  } else if (triedBefore.has('whatsapp')) whatsAppProblem = 'whatsapp-failed';

  if (!smsConsented) return settle(whatsAppProblem ?? 'no-consent');
  if (triedBefore.has('sms')) return settle('sms-failed');
  const claim = await claimOutboundMessage(database, rowOf(decision, 'sms', composed.smsText, template, now));
  if (!claim.claimed) return { outcome: 'skipped', reason: 'claimed-concurrently' };
  const result = await deliverClaimedMessage({
    database,
    messageId: claim.id,
    adapter: adapters.sms,
    message: { to, channel: 'sms', body: composed.smsText },
    now,
  });
  if (!result.ok) {
    const reason = result.error.uncertain ? `${result.error.reason}-uncertain` : result.error.reason;
    return settle(whatsAppProblem === null ? reason : `${whatsAppProblem}; ${reason}`);
  }
  // The reason records why SMS carried a message WhatsApp was chosen for.
  await settleDecision(database, decision.id, {
    status: 'sent',
    reason: whatsAppProblem === null ? null : `sms-fallback: ${whatsAppProblem}`,
  });
  return {
    outcome: 'sent',
    channel: 'sms',
    messageId: result.messageId,
    form: 'sms',
    ...(whatsAppProblem === null ? {} : { fallbackFrom: whatsAppProblem }),
  };
}
