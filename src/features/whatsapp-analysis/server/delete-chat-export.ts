import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import { chatExports } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requireActor } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import { chatExportIdSchema } from '../schemas';
import { chatExportNotFound } from './get-chat-export';

/** Deletes one of the signed-in user's saved conversations; another user's is refused as not found (and audited). */
export async function deleteChatExport(options: {
  database: Database;
  actor: Viewer | null;
  id: unknown;
  request?: RequestContext;
}): Promise<{ id: string }> {
  const { database } = options;
  const actor = requireActor(options.actor);
  const id = parseInput(chatExportIdSchema, options.id, { label: 'The saved conversation' });
  const deleted = await database
    .delete(chatExports)
    .where(and(eq(chatExports.id, id), eq(chatExports.ownerUserId, actor.id)))
    .returning({ id: chatExports.id });
  if (deleted.length === 0) {
    await recordAuditEvent(database, {
      action: 'chat-export.deleted',
      outcome: 'denied',
      actorUserId: actor.id,
      ...options.request,
      details: { chatExportId: id },
    });
    throw new AppError('not_found', chatExportNotFound, { fieldErrors: { id: chatExportNotFound } });
  }
  await recordAuditEvent(database, {
    action: 'chat-export.deleted',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { chatExportId: id },
  });
  return { id };
}
