import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messageTemplateVersions } from '@/db/schema';
import type { StoredTemplate } from '../schemas';
import { storedTemplateColumns, toStoredTemplate } from './stored-template-row';

/** The current (highest) version of a template in a language; null when the library has no such template. */
export async function getCurrentTemplate(options: {
  database: Database;
  templateId: string;
  language: string;
}): Promise<StoredTemplate | null> {
  const [row] = await options.database
    .select(storedTemplateColumns)
    .from(messageTemplateVersions)
    .where(and(eq(messageTemplateVersions.templateId, options.templateId), eq(messageTemplateVersions.language, options.language)))
    .orderBy(desc(messageTemplateVersions.version))
    .limit(1);
  return row === undefined ? null : toStoredTemplate(row);
}
