import 'server-only';
import type { Database } from '@/db/client';
import { decideWhatsAppForm, type TemplateApprovalStatus } from '@/engine/messaging';
import type { ConsentPurpose } from '@/lib/domain/consent';
import type { MessageReplyChoices } from '@/lib/domain/message-records';
import type { ChannelAdapters, WhatsAppContent } from './channel-adapter';
import { hasConsent } from './decision-context';
import {
  claimOutboundMessage,
  deliverClaimedMessage,
  e164,
  failedStatuses,
  findPatientContact,
  lastInboundWhatsAppAt,
  outboundMessageSource,
} from './outbound-messages';

/** Free-form WhatsApp content: what the 24-hour window allows (never a template). */
export type FreeFormWhatsApp = Exclude<WhatsAppContent, { kind: 'template' }>;

/**
 * An approved template that may go in the message's place when the window is closed (a survey invitation, decision
 * 056): its content, the text stored for it, its approval as the library records it, and the quick replies it
 * offers (stored on the message so a tap can be read, and /dev/phone can show them).
 */
export type WhatsAppTemplateAlternative = {
  content: Extract<WhatsAppContent, { kind: 'template' }>;
  body: string;
  approval: TemplateApprovalStatus;
  quickReplies: readonly { title: string; payload: string }[];
  /** The library's template and version it renders: recorded on the message, so a later edit does not rewrite history. */
  template: { id: string; language: string; version: number };
};

export type PatientMessageOutcome =
  | {
      outcome: 'sent';
      channel: 'whatsapp' | 'sms';
      messageId: string;
      form: WhatsAppContent['kind'] | 'sms';
      fallbackFrom?: string;
    }
  | { outcome: 'not-sent'; reason: string };

function replyChoicesOf(content: FreeFormWhatsApp): MessageReplyChoices | null {
  if (content.kind === 'interactive-buttons')
    return { kind: 'buttons', choices: content.buttons.map(({ payload, title }) => ({ id: payload, title })) };
  if (content.kind === 'interactive-list')
    return { kind: 'list', choices: content.rows.map(({ payload, title }) => ({ id: payload, title })) };
  return null;
}

/**
 * A message of our own to one patient outside the daily loop (a survey's questions, its clarification): sent on
 * WhatsApp when the patient consents to it for `purpose` and the 24-hour customer-service window is open (this
 * content is free-form, which Meta refuses outside the window), or, outside the window, `whatsAppTemplate` in its
 * place when given and approved (form 'template': the caller learns the patient got the template instead); else by
 * SMS when consented; never on a channel without a current opt-in (a STOP withdrew every one). WhatsApp refusing it for
 * good falls back to SMS, as the send path does (decision 019). Once per `key`: each channel's row is claimed
 * under `<key>:<channel>` before the provider is called, so a retried job finds it and sends nothing.
 */
export async function sendPatientMessage(options: {
  database: Database;
  adapters: ChannelAdapters;
  now: Date;
  patientId: string;
  purpose: ConsentPurpose;
  category: string;
  framing?: string;
  key: string;
  whatsApp: { content: FreeFormWhatsApp; body: string } | null;
  /** Sent instead of `whatsApp` when the window is closed, if approved. */
  whatsAppTemplate?: WhatsAppTemplateAlternative | null;
  sms: string | null;
  /** Only this channel (a clarification goes where the patient wrote). */
  only?: 'whatsapp' | 'sms';
}): Promise<PatientMessageOutcome> {
  const { database, now, adapters, patientId } = options;
  const contact = await findPatientContact(database, patientId);
  if (contact === null) return { outcome: 'not-sent', reason: 'no-patient' };
  if (contact.phoneNumber === null) return { outcome: 'not-sent', reason: 'no-number' };
  const to = e164(contact.phoneNumber);
  const consented = async (channel: 'whatsapp' | 'sms') =>
    (options.only === undefined || options.only === channel) &&
    (await hasConsent({ database, patientId, channel, purpose: options.purpose, now }));
  const whatsAppConsented = options.whatsApp !== null && (await consented('whatsapp'));
  const smsConsented = options.sms !== null && (await consented('sms'));
  if (!whatsAppConsented && !smsConsented) return { outcome: 'not-sent', reason: 'no-consent' };

  const row = (
    channel: 'whatsapp' | 'sms',
    body: string,
    replyChoices: MessageReplyChoices | null,
    template: WhatsAppTemplateAlternative['template'] | null = null,
  ) => ({
    patientId,
    channel,
    direction: 'outbound' as const,
    category: options.category,
    framing: options.framing ?? null,
    templateId: template?.id ?? null,
    templateLanguage: template?.language ?? null,
    templateVersion: template?.version ?? null,
    body,
    sentAt: now,
    status: 'sending',
    replyChoices,
    source: outboundMessageSource,
    sourceRecordId: `${options.key}:${channel}`,
  });

  let whatsAppProblem: string | null = null;
  const whatsAppFirst = whatsAppConsented && !(contact.preferredChannel === 'sms' && smsConsented);
  if (whatsAppFirst && options.whatsApp !== null) {
    const lastInboundAt = await lastInboundWhatsAppAt(database, patientId, now);
    const alternative = options.whatsAppTemplate ?? null;
    const form = decideWhatsAppForm({
      now: now.getTime(),
      lastInboundAt,
      template: alternative === null ? null : { approval: alternative.approval },
    });
    // Without a template: the window is closed; with one Meta has not approved: that is why.
    if (form.form === 'none') whatsAppProblem = form.reason === 'no-template' ? 'whatsapp-window-closed' : `whatsapp-${form.reason}`;
    else {
      const { content, body, replyChoices, template } =
        form.form === 'template' && alternative !== null
          ? {
              content: alternative.content as WhatsAppContent,
              body: alternative.body,
              replyChoices: {
                kind: 'quick-replies',
                choices: alternative.quickReplies.map(({ payload, title }) => ({ id: payload, title })),
              } satisfies MessageReplyChoices,
              template: alternative.template,
            }
          : {
              content: options.whatsApp.content as WhatsAppContent,
              body: options.whatsApp.body,
              replyChoices: replyChoicesOf(options.whatsApp.content),
              template: null,
            };
      const claim = await claimOutboundMessage(database, row('whatsapp', body, replyChoices, template));
      if (!claim.claimed) {
        if (!failedStatuses.has(claim.existing.status) && claim.existing.status !== 'sending')
          return { outcome: 'sent', channel: 'whatsapp', messageId: claim.existing.id, form: content.kind };
        if (claim.existing.status === 'sending') return { outcome: 'not-sent', reason: 'interrupted' };
        whatsAppProblem = 'whatsapp-failed';
      } else {
        const result = await deliverClaimedMessage({
          database,
          messageId: claim.id,
          adapter: adapters.whatsapp,
          message: { to, channel: 'whatsapp', content },
          now,
        });
        if (result.ok) return { outcome: 'sent', channel: 'whatsapp', messageId: result.messageId, form: content.kind };
        if (result.error.uncertain) return { outcome: 'not-sent', reason: `${result.error.reason}-uncertain` };
        whatsAppProblem = result.error.reason;
      }
    }
  }
  if (!smsConsented || options.sms === null) return { outcome: 'not-sent', reason: whatsAppProblem ?? 'no-consent' };
  const claim = await claimOutboundMessage(database, row('sms', options.sms, null));
  if (!claim.claimed) {
    if (claim.existing.status === 'sending') return { outcome: 'not-sent', reason: 'interrupted' };
    if (failedStatuses.has(claim.existing.status)) return { outcome: 'not-sent', reason: 'sms-failed' };
    return { outcome: 'sent', channel: 'sms', messageId: claim.existing.id, form: 'sms' };
  }
  const result = await deliverClaimedMessage({
    database,
    messageId: claim.id,
    adapter: adapters.sms,
    message: { to, channel: 'sms', body: options.sms },
    now,
  });
  if (!result.ok) {
    const reason = result.error.uncertain ? `${result.error.reason}-uncertain` : result.error.reason;
    return { outcome: 'not-sent', reason: whatsAppProblem === null ? reason : `${whatsAppProblem}; ${reason}` };
  }
  return {
    outcome: 'sent',
    channel: 'sms',
    messageId: result.messageId,
    form: 'sms',
    ...(whatsAppProblem === null ? {} : { fallbackFrom: whatsAppProblem }),
  };
}
