import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import { dataSources } from '@/db/schema';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { doseEventSourceSchema } from '../schemas';
import { hashApiKey, newApiKey } from './api-keys';

/** An admin registers a device or app that sends dose events; its API key is returned once, never stored. */
export async function createDoseEventSource(options: {
  database: Database;
  actor: SessionUser | null;
  name: unknown;
  request?: Partial<RequestContext>;
}): Promise<{ id: string; name: string; apiKey: string }> {
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'dose-event-sources:manage',
    message: 'Only an administrator can create API keys.',
    audit: { database: options.database, action: 'api-key.create', ...options.request },
  });
  const { name } = parseInput(doseEventSourceSchema, { name: options.name }, { label: 'The API key' });
  const apiKey = newApiKey();
  const id = `dose-api-${randomUUID().slice(0, 8)}`;
  await options.database.insert(dataSources).values({ id, kind: 'dose-event-api', name, apiKeyHash: hashApiKey(apiKey) });
  await recordAuditEvent(options.database, {
    action: 'api-key.create',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { sourceId: id },
  });
  return { id, name, apiKey };
}
