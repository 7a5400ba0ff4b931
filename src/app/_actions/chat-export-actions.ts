'use server';

import { z } from '@/lib/zod';
import { deleteChatExport, getChatExport, saveChatExport } from '@/features/whatsapp-analysis';
import { authedAction } from '@/lib/server/authed-action';

// Every signed-in user may save, open and delete their own conversations (docs/decisions/033); the use cases
// parse the input (bounded: 1 MB body, 5,000 messages) and answer "not found" for anyone else's.
export const saveChatExportAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => saveChatExport({ database: context.database, actor: context.actor, input, request: context.request }),
});

export const getChatExportAction = authedAction({
  schema: z.unknown(),
  run: (id, context) => getChatExport({ database: context.database, actor: context.actor, id }),
});

export const deleteChatExportAction = authedAction({
  schema: z.unknown(),
  run: (id, context) => deleteChatExport({ database: context.database, actor: context.actor, id, request: context.request }),
});
