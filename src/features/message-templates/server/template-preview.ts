import 'server-only';
import {
  findTemplate,
  renderSms,
  renderWhatsApp,
  SmsTooLongError,
  TemplateRenderError,
  type MessageTemplate,
  type TemplateValues,
} from '@/engine/messaging';
import type { StoredTemplate } from '../schemas';

/**
 * The example record the page fills placeholders from, and says so: a medicine, a dose time and days of
 * supply left, as a patient's record holds them. Never a name: templates carry none.
 */
export const exampleRecord = { medicine: 'Metformin 500 mg', doseMinute: 8 * 60, daysOfSupplyLeft: 5 } as const satisfies TemplateValues;

export type TemplatePreview = {
  whatsApp: { text: string; buttons: string[] } | null;
  sms: { text: string; segments: number; encoding: string; keywords: { keyword: string; label: string }[] } | null;
  /** Why the template cannot be shown as sent (the engine refused it); null when it renders. */
  problem: string | null;
};

/** A stored version rendered by the engine as the patient would receive it, with the example record. */
export function previewTemplate(stored: StoredTemplate): TemplatePreview {
  const engineTemplate = findTemplate(stored.templateId, stored.language);
  if (engineTemplate === undefined) return { whatsApp: null, sms: null, problem: 'The engine has no template with this id.' };
  const template: MessageTemplate = { ...engineTemplate, body: stored.body, whatsApp: stored.whatsApp };
  try {
    const whatsApp = renderWhatsApp(template, exampleRecord);
    const sms = renderSms(template, exampleRecord, { smartEncoding: true });
    return {
      whatsApp: { text: whatsApp.text, buttons: whatsApp.buttons.map((button) => button.title) },
      sms: {
        text: sms.text,
        segments: sms.length.segments,
        encoding: sms.length.encoding,
        keywords: template.smsKeywords.map(({ keyword, label }) => ({ keyword, label })),
      },
      problem: null,
    };
  } catch (error) {
    if (error instanceof TemplateRenderError || error instanceof SmsTooLongError)
      return { whatsApp: null, sms: null, problem: error.message };
    throw error;
  }
}
