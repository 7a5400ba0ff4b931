import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import { chatExports } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { chatExportIdSchema, type SavedChatExport } from '../schemas';

/** The saved conversation's "not found": the same answer for another user's export as for none, so ids reveal nothing. */
export const chatExportNotFound = 'id: no saved conversation of yours has this id';

/** One of the signed-in user's saved conversations, whole (to analyse it again in the browser). */
export async function getChatExport(options: { database: Database; actor: Viewer | null; id: unknown }): Promise<SavedChatExport> {
  const actor = requireActor(options.actor);
  const id = parseInput(chatExportIdSchema, options.id, { label: 'The saved conversation' });
  const [row] = await options.database
    .select({
      id: chatExports.id,
      fileName: chatExports.fileName,
      messageCount: chatExports.messageCount,
      participants: chatExports.participants,
      createdAt: chatExports.createdAt,
      timeZone: chatExports.timeZone,
      dateOrder: chatExports.dateOrder,
      messages: chatExports.messages,
    })
    .from(chatExports)
    .where(and(eq(chatExports.id, id), eq(chatExports.ownerUserId, actor.id)));
  if (row === undefined) throw new AppError('not_found', chatExportNotFound, { fieldErrors: { id: chatExportNotFound } });
  return { ...row, createdAt: row.createdAt.toISOString() };
}
