import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import { chatExports } from '@/db/schema';
import { requireActor } from '@/lib/server/authorization';
import type { SavedChatExportSummary } from '../schemas';

/** The signed-in user's own saved conversations, newest first (no one else's, whatever their role). */
export async function listChatExports(options: { database: Database; actor: Viewer | null }): Promise<SavedChatExportSummary[]> {
  const actor = requireActor(options.actor);
  const rows = await options.database
    .select({
      id: chatExports.id,
      fileName: chatExports.fileName,
      messageCount: chatExports.messageCount,
      participants: chatExports.participants,
      createdAt: chatExports.createdAt,
    })
    .from(chatExports)
    .where(eq(chatExports.ownerUserId, actor.id))
    .orderBy(desc(chatExports.createdAt), desc(chatExports.id))
    .limit(200);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
