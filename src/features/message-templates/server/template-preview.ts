import 'server-only';
import { findTemplate, renderSms, renderWhatsApp, SmsTooLongError, TemplateRenderError, type MessageTemplate } from '@/engine/messaging';
import { exampleRecord, type StoredTemplate, type TemplatePreview } from '../schemas';

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
