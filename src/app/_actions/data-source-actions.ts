'use server';

import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { createDoseEventSource } from '@/features/dose-events/server/create-dose-event-source';
import { revokeDoseEventSource } from '@/features/dose-events/server/revoke-dose-event-source';
import { type ActionResult, toActionResult } from '@/lib/server/action-result';
import { getSessionUser } from '@/lib/server/session';

export async function createApiKeyAction(name: unknown): Promise<ActionResult<{ id: string; name: string; apiKey: string }>> {
  return toActionResult(async () =>
    createDoseEventSource({ database: getDatabase(), actor: await getSessionUser(await headers()), name: String(name ?? '') }),
  );
}

export async function revokeApiKeyAction(sourceId: unknown): Promise<ActionResult<null>> {
  return toActionResult(async () => {
    await revokeDoseEventSource({ database: getDatabase(), actor: await getSessionUser(await headers()), sourceId: String(sourceId ?? '') });
    return null;
  });
}
