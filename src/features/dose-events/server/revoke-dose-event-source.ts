import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dataSources } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

/** An admin revokes a source's API key; its events stay. */
export async function revokeDoseEventSource(options: {
  database: Database;
  actor: SessionUser | null;
  sourceId: string;
  request?: Partial<RequestContext>;
}): Promise<void> {
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'dose-event-sources:manage',
    message: 'Only an administrator can revoke API keys.',
    audit: { database: options.database, action: 'api-key.revoke', ...options.request },
  });
  const updated = await options.database
    .update(dataSources)
    .set({ status: 'revoked' })
    .where(and(eq(dataSources.id, options.sourceId), eq(dataSources.kind, 'dose-event-api')))
    .returning({ id: dataSources.id });
  if (updated.length === 0) throw new AppError('not_found', 'There is no such source.');
  await recordAuditEvent(options.database, {
    action: 'api-key.revoke',
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: { sourceId: options.sourceId },
  });
}
