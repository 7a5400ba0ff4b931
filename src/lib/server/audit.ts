import 'server-only';
import type { Database } from '@/db/client';
import { auditLog } from '@/db/schema';

export type AuditEvent = {
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  actorUserId?: string | null;
  targetUserId?: string | null;
  /** From requestContextOf(headers) (spread it in): the client and the request the event belongs to. */
  clientAddress?: string | null;
  requestId?: string | null;
  /** Context only: never a code, password or token. */
  details?: Record<string, unknown>;
};

/** Appends one event to the audit log (the table refuses updates and deletes). */
export async function recordAuditEvent(database: Database, event: AuditEvent): Promise<void> {
  await database.insert(auditLog).values({
    action: event.action,
    outcome: event.outcome,
    actorUserId: event.actorUserId ?? null,
    targetUserId: event.targetUserId ?? null,
    clientAddress: event.clientAddress ?? null,
    requestId: event.requestId ?? null,
    details: event.details ?? {},
  });
}
