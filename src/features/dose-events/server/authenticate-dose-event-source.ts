import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dataSources } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import { hashApiKey } from './api-keys';

/** The source an API key belongs to, or a 401; a refused key is audited with its request (never the key). */
export async function authenticateDoseEventSource(options: {
  database: Database;
  apiKey: string | null;
  request: RequestContext;
}): Promise<{ id: string }> {
  if (options.apiKey === null || options.apiKey === '')
    throw new AppError('unauthenticated', 'An API key is required (Authorization: Bearer <key>).');
  const [source] = await options.database
    .select({ id: dataSources.id, status: dataSources.status })
    .from(dataSources)
    .where(and(eq(dataSources.apiKeyHash, hashApiKey(options.apiKey)), eq(dataSources.kind, 'dose-event-api')));
  if (source === undefined || source.status !== 'active') {
    await recordAuditEvent(options.database, {
      action: 'dose-events.record',
      outcome: 'denied',
      ...options.request,
      details: {
        reason: source === undefined ? 'unknown API key' : 'revoked API key',
        ...(source === undefined ? {} : { sourceId: source.id }),
      },
    });
    throw new AppError('unauthenticated', 'The API key is not valid or was revoked.');
  }
  return { id: source.id };
}
