import 'server-only';
import type { Database } from '@/db/client';
import {
  buttonPayload,
  findTemplate,
  type MessageTemplate,
  quickReplyButtons,
  renderBody,
  renderParameters,
  renderSms,
  type TemplateLanguage,
  templateLanguages,
  type TemplateValues,
} from '@/engine/messaging';
import type { ResolvedTemplate } from '../schemas';
import type { WhatsAppContent } from './channel-adapter';

/** How the send path finds a template's current version (message-templates' getCurrentTemplate has this shape). */
export type ResolveTemplate = (options: { database: Database; templateId: string; language: string }) => Promise<ResolvedTemplate | null>;

/** The library's language for a patient's language tag ("es-MX" → es), English when we have none of theirs. */
export function templateLanguageOf(language: string | null): TemplateLanguage {
  const primary = language?.toLowerCase().split(/[-_]/)[0];
  return (templateLanguages as readonly string[]).includes(primary ?? '') ? (primary as TemplateLanguage) : 'en';
}

/** The patient's language first, then English. */
export async function resolveTemplateForPatient(options: {
  database: Database;
  resolveTemplate: ResolveTemplate;
  templateId: string;
  language: string | null;
}): Promise<ResolvedTemplate | null> {
  const wanted = templateLanguageOf(options.language);
  const found = await options.resolveTemplate({ database: options.database, templateId: options.templateId, language: wanted });
  if (found !== null || wanted === 'en') return found;
  return options.resolveTemplate({ database: options.database, templateId: options.templateId, language: 'en' });
}

/** The engine's template with the stored version's body and WhatsApp metadata (an edited body, a new approval). */
export function asEngineTemplate(stored: ResolvedTemplate): MessageTemplate | null {
  const language = templateLanguageOf(stored.language);
  const library = findTemplate(stored.templateId, language);
  if (library === undefined) return null;
  return { ...library, body: stored.body, whatsApp: { ...library.whatsApp, ...stored.whatsApp, category: library.whatsApp.category } };
}

export type ComposedMessage = {
  /** What the patient reads on WhatsApp (stored as the message body). */
  whatsAppText: string;
  whatsAppTemplate: Extract<WhatsAppContent, { kind: 'template' }>;
  whatsAppInteractive: Extract<WhatsAppContent, { kind: 'interactive-buttons' }>;
  /** The SMS: sender label, body, reply keywords and STOP. */
  smsText: string;
};

/**
 * Renders every form of the message at once, so a missing value is found before anything is sent. Throws the
 * engine's TemplateRenderError or SmsTooLongError. `reference` goes into each button payload (the decision id),
 * so a tap names the decision it answers.
 */
export function composeMessage(
  template: MessageTemplate,
  values: TemplateValues,
  options: { reference: string; senderLabel: string },
): ComposedMessage {
  const parameters = renderParameters(template, values);
  const text = renderBody(template, values);
  const buttons = quickReplyButtons(template.language).map(({ action, title }) => ({
    title,
    payload: buttonPayload(action, options.reference),
  }));
  return {
    whatsAppText: text,
    whatsAppTemplate: {
      kind: 'template',
      name: template.whatsApp.name,
      language: template.whatsApp.language,
      parameters,
      buttonPayloads: buttons.map(({ payload }) => payload),
    },
    whatsAppInteractive: { kind: 'interactive-buttons', body: text, buttons },
    smsText: renderSms(template, values, { senderLabel: options.senderLabel, smartEncoding: true }).text,
  };
}
