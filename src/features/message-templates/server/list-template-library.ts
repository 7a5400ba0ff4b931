import 'server-only';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messageTemplateVersions } from '@/db/schema';
import type { TemplateLanguage } from '@/engine/messaging';
import type { LibraryEntry } from '../schemas';
import { storedTemplateColumns, toStoredTemplate } from './stored-template-row';

/** The current version of every template (of one language, or all), with how many versions each has. */
export async function listTemplateLibrary(options: { database: Database; language?: TemplateLanguage }): Promise<LibraryEntry[]> {
  const { templateId, language, version } = messageTemplateVersions;
  const rows = await options.database
    .selectDistinctOn([templateId, language], {
      ...storedTemplateColumns,
      // Window functions run before DISTINCT ON keeps the highest version: this counts every version.
      versionCount: sql<number>`count(*) over (partition by ${templateId}, ${language})::int`,
      createdAt: messageTemplateVersions.createdAt,
    })
    .from(messageTemplateVersions)
    .where(options.language === undefined ? undefined : eq(language, options.language))
    .orderBy(asc(templateId), asc(language), desc(version));
  return rows.map((row) => ({
    ...toStoredTemplate(row),
    versionCount: Number(row.versionCount),
    updatedAt: new Date(row.createdAt).toISOString(),
  }));
}
