/**
 * The template library: for every message arm (category × framing) and variant, one template per
 * language, with what WhatsApp needs to know about it. The texts live in template-texts.ts; this module
 * adds the WhatsApp metadata and the reply options, and checks a body's placeholders.
 */
import {
  messageCategories,
  messageFramings,
  templateId,
  templateVariantsPerArm,
  type MessageArm,
  type MessageCategory,
} from '@/engine/policy/message-arms';
import { isPlaceholderName, templateLanguages, type PlaceholderName, type TemplateLanguage } from './template-fields';
import { quickReplyButtons, smsReplyKeywords, type QuickReplyButton, type SmsReplyKeyword } from './reply-options';
import { templateTexts } from './template-texts';

/**
 * WhatsApp's template categories we use (authentication is for one-time codes). Meta prices and
 * delivers them differently and may re-categorise a template on review, so the category is stored.
 */
export const whatsAppCategories = ['utility', 'marketing'] as const;
export type WhatsAppCategory = (typeof whatsAppCategories)[number];

/**
 * Meta's rule: utility templates concern a transaction the user asked for (here, the medicine programme
 * the patient consented to) and carry nothing promotional. Reminders, refills and check-ins about the
 * patient's own doses are that. Education and encouragement are not tied to one dose and Meta treats
 * such content as marketing, so they are submitted as marketing and sent only with that consent.
 */
export const whatsAppCategoryByMessageCategory: Readonly<Record<MessageCategory, WhatsAppCategory>> = {
  reminder: 'utility',
  refill: 'utility',
  'check-in': 'utility',
  education: 'marketing',
  encouragement: 'marketing',
};

/**
 * Meta's template statuses, plus `not-submitted` for a template that exists only here. Only an
 * approved template may be sent outside the 24-hour customer-service window (see whatsapp-window.ts).
 */
export const templateApprovalStatuses = ['not-submitted', 'pending', 'approved', 'rejected', 'paused', 'disabled'] as const;
export type TemplateApprovalStatus = (typeof templateApprovalStatuses)[number];

/** Meta's language codes for our languages. */
export const whatsAppLanguageCodes: Readonly<Record<TemplateLanguage, string>> = { en: 'en', es: 'es' };

export type MessageTemplate = {
  /** `category.framing.variant`, the simulator's template id. */
  id: string;
  arm: MessageArm;
  variant: number;
  language: TemplateLanguage;
  whatsApp: {
    /** Lower case letters, digits and underscores (Meta's rule); one name holds every language. */
    name: string;
    language: string;
    category: WhatsAppCategory;
    approval: TemplateApprovalStatus;
  };
  /** With `{{placeholder}}`s; see template-fields.ts. */
  body: string;
  placeholders: readonly PlaceholderName[];
  buttons: readonly QuickReplyButton[];
  smsKeywords: readonly SmsReplyKeyword[];
};

export function whatsAppTemplateName(id: string): string {
  return `medaptive_${id.replace(/[^a-z0-9]+/g, '_')}`;
}

const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Placeholder names in order of first use, known or not. */
export function placeholdersIn(body: string): string[] {
  const names: string[] = [];
  for (const match of body.matchAll(placeholderPattern)) {
    const name = match[1] ?? '';
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

export type TemplateBodyProblem = { problem: string; placeholder?: string };

/** WhatsApp's limit on a template body. */
export const maxWhatsAppBodyLength = 1024;

/**
 * Every problem with a body (for an editor: all of them at once): unknown placeholders, a body that
 * starts or ends with one or puts two side by side (Meta rejects those), stray braces, too long.
 */
export function checkTemplateBody(body: string): TemplateBodyProblem[] {
  const problems: TemplateBodyProblem[] = [];
  const trimmed = body.trim();
  if (trimmed === '') return [{ problem: 'The body is empty.' }];
  for (const name of placeholdersIn(body)) {
    if (!isPlaceholderName(name)) problems.push({ problem: `Unknown placeholder {{${name}}}.`, placeholder: name });
  }
  if (/^\{\{/.test(trimmed)) problems.push({ problem: 'The body starts with a placeholder; WhatsApp refuses that.' });
  // A full stop after the last placeholder is enough for Meta's review.
  if (/\}\}$/.test(trimmed)) problems.push({ problem: 'The body ends with a placeholder; WhatsApp refuses that.' });
  if (/\}\}\s*\{\{/.test(body)) problems.push({ problem: 'Two placeholders are side by side; put words between them.' });
  if (/\{(?!\{)|(?<!\})\}/.test(body.replace(placeholderPattern, ''))) problems.push({ problem: 'The body has a stray brace.' });
  if (body.length > maxWhatsAppBodyLength) problems.push({ problem: `The body is longer than ${maxWhatsAppBodyLength} characters.` });
  return problems;
}

function buildTemplate(arm: MessageArm, variant: number, language: TemplateLanguage): MessageTemplate {
  const id = templateId(arm, variant);
  const body = templateTexts[language][id];
  if (body === undefined) throw new Error(`Template ${id} has no ${language} text.`);
  return {
    id,
    arm,
    variant,
    language,
    whatsApp: {
      name: whatsAppTemplateName(id),
      language: whatsAppLanguageCodes[language],
      category: whatsAppCategoryByMessageCategory[arm.category],
      // Nothing here has been submitted to Meta; the send path keeps the live status beside its copy.
      approval: 'not-submitted',
    },
    body,
    placeholders: placeholdersIn(body).filter(isPlaceholderName),
    buttons: quickReplyButtons(language),
    smsKeywords: smsReplyKeywords(language),
  };
}

/** Every template: categories × framings × variants (1 … templateVariantsPerArm) × languages. */
export const templateLibrary: readonly MessageTemplate[] = messageCategories.flatMap((category) =>
  messageFramings.flatMap((framing) =>
    Array.from({ length: templateVariantsPerArm }, (_, index) =>
      templateLanguages.map((language) => buildTemplate({ category, framing }, index + 1, language)),
    ).flat(),
  ),
);

const byKey = new Map(templateLibrary.map((template) => [`${template.id}|${template.language}`, template]));

export function findTemplate(id: string, language: TemplateLanguage): MessageTemplate | undefined {
  return byKey.get(`${id}|${language}`);
}

/** A template's language for a patient: their language when the library has it, else English. */
export function templateFor(id: string, language: string | null): MessageTemplate | undefined {
  const wanted = (templateLanguages as readonly string[]).find((code) => language?.toLowerCase().split(/[-_]/)[0] === code);
  return findTemplate(id, (wanted as TemplateLanguage | undefined) ?? 'en') ?? findTemplate(id, 'en');
}
