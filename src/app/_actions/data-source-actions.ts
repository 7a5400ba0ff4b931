'use server';

import { z } from '@/lib/zod';
import { createDoseEventSource } from '@/features/dose-events/server/create-dose-event-source';
import { revokeDoseEventSource } from '@/features/dose-events/server/revoke-dose-event-source';
import { authedAction } from '@/lib/server/authed-action';

export const createApiKeyAction = authedAction({
  // The use case checks the name's length; FormData gives null for a missing field.
  schema: z
    .string()
    .nullable()
    .transform((name) => name ?? ''),
  label: 'The source name',
  run: (name, context) => createDoseEventSource({ ...context, name }),
});

export const revokeApiKeyAction = authedAction({
  schema: z.string().min(1).max(200),
  label: 'The source',
  run: async (sourceId, context) => {
    await revokeDoseEventSource({ ...context, sourceId });
    return null;
  },
});
