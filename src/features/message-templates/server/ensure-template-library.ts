import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messageTemplateVersions } from '@/db/schema';
import { templateLibrary } from '@/engine/messaging';
import { surveyInvitationTemplates } from '@/engine/surveys';

/**
 * Version 1 of every template of the engine's library that has no version yet — the reminders' arms, the survey
 * invitation (decision 056) and its reminder (decision 065), which the send path reads here with its approval (run on every start, after
 * migrations). Idempotent and cheap: one statement; a template already stored, edited or not, is left alone,
 * and instances starting together cannot both insert it (the unique key on template, language and version).
 * Returns how many templates were added.
 */
export async function ensureTemplateLibrary(options: { database: Database }): Promise<number> {
  const inserted = await options.database
    .insert(messageTemplateVersions)
    .values([
      ...templateLibrary.map((template) => ({
        templateId: template.id,
        language: template.language,
        version: 1,
        body: template.body,
        whatsAppName: template.whatsApp.name,
        whatsAppLanguage: template.whatsApp.language,
        whatsAppCategory: template.whatsApp.category,
        approvalStatus: template.whatsApp.approval,
        editedBy: null,
        note: 'The library’s first version.',
      })),
      ...surveyInvitationTemplates.map((template) => ({
        templateId: template.id,
        language: template.language,
        version: 1,
        body: template.body,
        whatsAppName: template.name,
        whatsAppLanguage: template.language,
        whatsAppCategory: template.category,
        approvalStatus: 'not-submitted' as const,
        editedBy: null,
        note: 'The library’s first version.',
      })),
    ])
    .onConflictDoNothing({
      target: [messageTemplateVersions.templateId, messageTemplateVersions.language, messageTemplateVersions.version],
    })
    .returning({ one: sql<number>`1` });
  return inserted.length;
}
