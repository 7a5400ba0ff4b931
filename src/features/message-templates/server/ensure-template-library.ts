import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messageTemplateVersions } from '@/db/schema';
import { templateLibrary } from '@/engine/messaging';
import { surveyInvitationTemplate } from '@/engine/surveys';

/**
 * Version 1 of every template of the engine's library that has no version yet — the reminders' arms and the survey
 * invitation (decision 056), which the send path reads here with its approval (run on every start, after
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
      {
        templateId: surveyInvitationTemplate.id,
        language: surveyInvitationTemplate.language,
        version: 1,
        body: surveyInvitationTemplate.body,
        whatsAppName: surveyInvitationTemplate.name,
        whatsAppLanguage: surveyInvitationTemplate.language,
        whatsAppCategory: surveyInvitationTemplate.category,
        approvalStatus: 'not-submitted',
        editedBy: null,
        note: 'The library’s first version.',
      },
    ])
    .onConflictDoNothing({
      target: [messageTemplateVersions.templateId, messageTemplateVersions.language, messageTemplateVersions.version],
    })
    .returning({ one: sql<number>`1` });
  return inserted.length;
}
