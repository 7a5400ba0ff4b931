import 'server-only';
import type { Database } from '@/db/client';
import { chatExports } from '@/db/schema';
import type { Viewer } from '@/db/queries/cohort-scope';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import { requireActor } from '@/lib/server/authorization';
import { maxSavedBytes, saveChatExportSchema, type SavedChatExportSummary } from '../schemas';

/**
 * Keeps a conversation the user parsed in their browser (docs/decisions/033): every signed-in user may, since
 * it is their own file; only they will see it. The participants are taken from the messages, not trusted from
 * the client. The audit row says that a conversation was saved and how big it is, never its name or content.
 */
export async function saveChatExport(options: {
  database: Database;
  actor: Viewer | null;
  input: unknown;
  request?: RequestContext;
}): Promise<SavedChatExportSummary> {
  const { database } = options;
  const actor = requireActor(options.actor);
  const input = parseInput(saveChatExportSchema, options.input, { label: 'The conversation' });
  // The body is bounded twice: Next.js refuses an action's body over 1 MB, and the stored messages are held to the same.
  if (JSON.stringify(input.messages).length > maxSavedBytes)
    throw new AppError('payload_too_large', `messages: a saved conversation may be at most ${maxSavedBytes / 1_000_000} MB`, {
      fieldErrors: { messages: `at most ${maxSavedBytes / 1_000_000} MB` },
    });
  const participants: string[] = [];
  for (const message of input.messages)
    if (message.author !== null && !participants.includes(message.author)) participants.push(message.author);
  const [row] = await database
    .insert(chatExports)
    .values({
      ownerUserId: actor.id,
      fileName: input.fileName,
      timeZone: input.timeZone,
      dateOrder: input.dateOrder,
      messageCount: input.messages.length,
      participants,
      messages: input.messages,
    })
    .returning({ id: chatExports.id, createdAt: chatExports.createdAt });
  await recordAuditEvent(database, {
    action: 'chat-export.saved',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { chatExportId: row!.id, messageCount: input.messages.length, participantCount: participants.length },
  });
  return {
    id: row!.id,
    fileName: input.fileName,
    messageCount: input.messages.length,
    participants,
    createdAt: row!.createdAt.toISOString(),
  };
}
