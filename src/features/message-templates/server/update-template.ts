import 'server-only';
import type { Database } from '@/db/client';
import { messageTemplateVersions } from '@/db/schema';
import { findTemplate } from '@/engine/messaging';
import { findSurveyInvitationTemplate } from '@/engine/surveys';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { type StoredTemplate, type TemplateUpdateInput, templateUpdateSchema } from '../schemas';
import { problemWithBody } from './check-template-update';
import { getCurrentTemplate } from './get-current-template';

export const editTemplatesRefusal = 'Only administrators may edit message templates.';

/**
 * An admin saves a template: a new version is inserted (versions are never updated, so what a message was
 * sent with stays readable), after the engine accepts the body and only when nobody saved since the editor
 * opened `expectedVersion`. Audited with the template and versions, never the text of any message sent.
 */
export async function updateTemplate(
  options: Omit<TemplateUpdateInput, 'note'> & {
    /** Why the version is made; empty or null: no note. */
    note?: string | null;
    database: Database;
    actor: Pick<SessionUser, 'id' | 'role'> | null;
    now: Date;
    request?: RequestContext;
  },
): Promise<StoredTemplate> {
  const { database } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'message-templates:edit',
    message: editTemplatesRefusal,
    audit: { database, action: 'message-template.update', ...options.request },
  });
  const input = parseInput(
    templateUpdateSchema,
    {
      templateId: options.templateId,
      language: options.language,
      body: options.body,
      approvalStatus: options.approvalStatus,
      whatsAppCategory: options.whatsAppCategory,
      note: options.note ?? undefined,
      expectedVersion: options.expectedVersion,
    },
    { label: 'The template' },
  );

  const current = await getCurrentTemplate({ database, templateId: input.templateId, language: input.language });
  // An arm's template in one of its languages, or the survey invitation or its reminder (English only, decisions 056, 065).
  const known =
    findTemplate(input.templateId, input.language) !== undefined ||
    findSurveyInvitationTemplate(input.templateId)?.language === input.language;
  if (current === null || !known)
    throw new AppError('not_found', `templateId: the library has no template ${input.templateId} in ${input.language}.`, {
      fieldErrors: { templateId: 'No such template in this language' },
    });
  const bodyProblem = problemWithBody({ templateId: input.templateId, language: input.language, body: input.body });
  if (bodyProblem !== null)
    throw new AppError('validation', `The template is not valid: body: ${bodyProblem}`, { fieldErrors: { body: bodyProblem } });
  if (current.version !== input.expectedVersion) throw staleEdit(current.version, input.expectedVersion);

  const changed = [
    ...(current.body !== input.body ? ['body'] : []),
    ...(current.whatsApp.approval !== input.approvalStatus ? ['approvalStatus'] : []),
    ...(current.whatsApp.category !== input.whatsAppCategory ? ['whatsAppCategory'] : []),
  ];
  if (changed.length === 0)
    throw new AppError('validation', 'The template is not valid: body: nothing was changed, so no version was saved.', {
      fieldErrors: { body: 'Nothing was changed: edit the body, the approval status or the category' },
    });

  const saved: StoredTemplate = {
    templateId: input.templateId,
    language: input.language,
    version: current.version + 1,
    body: input.body,
    whatsApp: {
      // The name Meta knows it by does not change with a version.
      name: current.whatsApp.name,
      language: current.whatsApp.language,
      category: input.whatsAppCategory,
      approval: input.approvalStatus,
    },
  };
  await database.transaction(async (transaction) => {
    // The unique key on (template, language, version): of two admins saving the same version, one wins.
    const inserted = await transaction
      .insert(messageTemplateVersions)
      .values({
        templateId: saved.templateId,
        language: saved.language,
        version: saved.version,
        body: saved.body,
        whatsAppName: saved.whatsApp.name,
        whatsAppLanguage: saved.whatsApp.language,
        whatsAppCategory: saved.whatsApp.category,
        approvalStatus: saved.whatsApp.approval,
        editedBy: actor.id,
        note: input.note,
        createdAt: options.now,
      })
      .onConflictDoNothing()
      .returning({ id: messageTemplateVersions.id });
    if (inserted.length === 0) throw staleEdit(saved.version, input.expectedVersion);
    await recordAuditEvent(transaction, {
      action: 'message-template.update',
      outcome: 'success',
      actorUserId: actor.id,
      ...options.request,
      details: { templateId: saved.templateId, language: saved.language, fromVersion: current.version, version: saved.version, changed },
    });
  });
  return saved;
}

function staleEdit(latest: number, expected: number): AppError {
  return new AppError(
    'conflict',
    `expectedVersion: someone saved version ${latest} of this template after you opened version ${expected}. Reload the page to see their change, then edit again.`,
    { fieldErrors: { expectedVersion: `Version ${latest} was saved meanwhile; reload before editing` } },
  );
}
