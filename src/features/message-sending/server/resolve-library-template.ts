import 'server-only';
import { findTemplate } from '@/engine/messaging';
import type { ResolvedTemplate } from '../schemas';
import { templateLanguageOf } from './compose-message';

/**
 * The engine library's text of a template (what the message-templates feature stores as version 1), for an
 * instance or a test without the stored library. Its approval is the library's: 'not-submitted', so outside
 * the WhatsApp window such a message goes by SMS.
 */
export async function resolveLibraryTemplate(options: { templateId: string; language: string }): Promise<ResolvedTemplate | null> {
  const template = findTemplate(options.templateId, templateLanguageOf(options.language));
  if (template === undefined) return null;
  return { templateId: template.id, language: template.language, version: 1, body: template.body, whatsApp: { ...template.whatsApp } };
}
