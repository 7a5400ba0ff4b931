import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, messageTemplateVersions } from '@/db/schema';
import type { TemplateVersionDto } from '../schemas';
import { storedTemplateColumns, toStoredTemplate } from './stored-template-row';

/** Every version of a template in a language, newest first: what changed, when, by whom and why. */
export async function listTemplateVersions(options: {
  database: Database;
  templateId: string;
  language: string;
}): Promise<TemplateVersionDto[]> {
  const rows = await options.database
    .select({
      ...storedTemplateColumns,
      editedBy: messageTemplateVersions.editedBy,
      editedByEmail: authUsers.email,
      note: messageTemplateVersions.note,
      createdAt: messageTemplateVersions.createdAt,
    })
    .from(messageTemplateVersions)
    .leftJoin(authUsers, eq(authUsers.id, messageTemplateVersions.editedBy))
    .where(and(eq(messageTemplateVersions.templateId, options.templateId), eq(messageTemplateVersions.language, options.language)))
    .orderBy(desc(messageTemplateVersions.version));
  return rows.map((row) => ({
    ...toStoredTemplate(row),
    editedBy: row.editedBy,
    editedByEmail: row.editedByEmail,
    note: row.note,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}
