'use server';

import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { createDoseEventSource } from '@/features/dose-events/server/create-dose-event-source';
import { revokeDoseEventSource } from '@/features/dose-events/server/revoke-dose-event-source';
import { type ActionResult, toActionResult } from '@/lib/server/action-result';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

async function context() {
  const requestHeaders = await headers();
  return { database: getDatabase(), actor: await getSessionUser(requestHeaders), request: requestContextOf(requestHeaders) };
}

export async function createApiKeyAction(name: unknown): Promise<ActionResult<{ id: string; name: string; apiKey: string }>> {
  return toActionResult(async () => createDoseEventSource({ ...(await context()), name }));
}

export async function revokeApiKeyAction(sourceId: unknown): Promise<ActionResult<null>> {
  return toActionResult(async () => {
    await revokeDoseEventSource({ ...(await context()), sourceId: String(sourceId ?? '') });
    return null;
  });
}
