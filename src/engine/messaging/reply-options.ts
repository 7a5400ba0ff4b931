/**
 * The three answers every message offers about the dose it is for: WhatsApp quick-reply buttons and the
 * SMS keywords that stand for them. Button titles stay within WhatsApp's 20-character limit; payloads
 * are ours and language-free, so a reply is read the same whatever language the button was shown in.
 */
import type { TemplateLanguage } from './template-fields';

export const replyActions = ['taken', 'not-yet', 'skip'] as const;
export type ReplyAction = (typeof replyActions)[number];

/** Payload prefix: `dose.taken`, optionally followed by `:<reference>` the send path chooses (e.g. a decision id). */
export const buttonPayloadPrefix = 'dose.';

export type QuickReplyButton = { action: ReplyAction; title: string; payload: string };
export type SmsReplyKeyword = { action: ReplyAction; keyword: string; label: string };

const buttonTitles: Readonly<Record<TemplateLanguage, Readonly<Record<ReplyAction, string>>>> = {
  en: { taken: 'Taken ✓', 'not-yet': 'Not yet', skip: 'Skip' },
  es: { taken: 'Tomada ✓', 'not-yet': 'Aún no', skip: 'Omitir' },
};

const smsLabels: Readonly<Record<TemplateLanguage, Readonly<Record<ReplyAction, string>>>> = {
  en: { taken: 'taken', 'not-yet': 'not yet', skip: 'skip' },
  es: { taken: 'tomada', 'not-yet': 'aún no', skip: 'omitir' },
};

/** Digits rather than words: the same in every language and one key on any phone. */
const smsDigits: Readonly<Record<ReplyAction, string>> = { taken: '1', 'not-yet': '2', skip: '3' };

export function buttonPayload(action: ReplyAction, reference?: string): string {
  return reference === undefined ? `${buttonPayloadPrefix}${action}` : `${buttonPayloadPrefix}${action}:${reference}`;
}

/** Reads a payload we issued; null for any other payload. */
export function parseButtonPayload(payload: string): { action: ReplyAction; reference: string | null } | null {
  if (!payload.startsWith(buttonPayloadPrefix)) return null;
  const rest = payload.slice(buttonPayloadPrefix.length);
  const colon = rest.indexOf(':');
  const action = colon === -1 ? rest : rest.slice(0, colon);
  if (!(replyActions as readonly string[]).includes(action)) return null;
  return { action: action as ReplyAction, reference: colon === -1 ? null : rest.slice(colon + 1) };
}

export function quickReplyButtons(language: TemplateLanguage): readonly QuickReplyButton[] {
  return replyActions.map((action) => ({ action, title: buttonTitles[language][action], payload: buttonPayload(action) }));
}

export function smsReplyKeywords(language: TemplateLanguage): readonly SmsReplyKeyword[] {
  return replyActions.map((action) => ({ action, keyword: smsDigits[action], label: smsLabels[language][action] }));
}

/** The line under an SMS body: the reply keywords and how to stop (carriers require the opt-out to be stated). */
export function smsReplyFooter(language: TemplateLanguage): string {
  const options = smsReplyKeywords(language)
    .map(({ keyword, label }) => `${keyword} = ${label}`)
    .join(', ');
  return language === 'es' ? `Responda ${options}. STOP para darse de baja.` : `Reply ${options}. STOP to opt out.`;
}
