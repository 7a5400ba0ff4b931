import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, doseEvents, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { createDoseEventSource } from '@/features/dose-events/server/create-dose-event-source';
import { clientAddressHeader } from '@/lib/client-address';
import type { SessionUser } from '@/lib/server/session';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST } from './route';

const admin: SessionUser = { id: 'admin-1', email: 'a@x', name: 'A', role: 'admin', phoneNumber: null, twoFactorEnabled: false };

function batchRequest(apiKey: string, body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }): Request {
  return new Request('http://localhost:3000/api/dose-events', {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${apiKey}`, [clientAddressHeader]: '192.0.2.8', 'x-request-id': 'req-dose-0001', ...headers },
    duplex: 'half',
  } as RequestInit);
}

describe.each(testDatabaseBackends())('POST /api/dose-events on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  beforeEach(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
    await database.database.insert(patients).values({ pseudonym: 'P-0001', source: 'test', sourceRecordId: '1' });
  });
  afterEach(async () => {
    server.restore();
    await database.dispose();
  });

  const event = (key: string) => ({ idempotencyKey: key, patient: 'P-0001', scheduledAt: '2026-11-22T08:00:00Z', status: 'missed' });

  it('is all or nothing: a NUL byte or a malformed id in one event is a 400 naming it, and nothing is stored', async () => {
    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'Bottles' });
    for (const [bad, field] of [
      [{ ...event('second'), idempotencyKey: 'bottle\u0000second' }, 'events.1.idempotencyKey'],
      [{ ...event('second'), patient: 'P-0001\u0000' }, 'events.1.patient'],
      [{ ...event('second'), product: '../../etc' }, 'events.1.product'],
    ] as const) {
      const response = await POST(batchRequest(apiKey, JSON.stringify({ events: [event('first'), bad] })));
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        error: { fieldErrors: Record<string, string> };
        rejected: { index: number; field: string }[];
      };
      expect(Object.keys(body.error.fieldErrors)).toEqual([field]);
      expect(body.rejected.map((rejected) => rejected.index)).toEqual([1]);
    }
    expect(await database.database.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);

    const stored = await POST(batchRequest(apiKey, JSON.stringify({ events: [event('first'), event('second')] })));
    expect(stored.status).toBe(200);
    expect(await stored.json()).toEqual({ accepted: 2, duplicates: 0 });
  });

  it('reads no body for a wrong key (401, audited), and bounds the body (413 past 1 MB, 415 if not JSON)', async () => {
    // 8 MB the server should never pull, since the key is wrong.
    let pulled = 0;
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 128) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const wrongKey = await POST(batchRequest('mdk_wrong', large));
    expect(wrongKey.status).toBe(401);
    expect(pulled).toBeLessThanOrEqual(1);
    const [refusal] = await database.database
      .select({ outcome: auditLog.outcome, requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog)
      .where(eq(auditLog.action, 'dose-events.record'));
    expect(refusal).toEqual({ outcome: 'denied', requestId: 'req-dose-0001', clientAddress: '192.0.2.8' });

    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'Bottles' });
    const huge = JSON.stringify({ events: [event('x')], padding: 'x'.repeat(1024 * 1024) });
    expect((await POST(batchRequest(apiKey, huge))).status).toBe(413);
    expect((await POST(batchRequest(apiKey, JSON.stringify({ events: [event('x')] }), { 'content-type': 'text/plain' }))).status).toBe(415);
    expect(await database.database.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);
  });
});
