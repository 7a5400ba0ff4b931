import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { clientAddressHeader } from '@/lib/client-address';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST } from './route';

describe('POST /api/auth/*', () => {
  it('refuses a body past 64 KB before better-auth reads it (413), by Content-Length or while streaming', async () => {
    let pulled = 0;
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 256) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const streamed = await POST(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        body: large,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(6);
    const declared = await POST(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        body: 'x',
        headers: { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) },
      }),
    );
    expect(declared.status).toBe(413);
  });
});

describe.each(testDatabaseBackends())('refusals of /api/auth/* on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  beforeEach(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
  });
  afterEach(async () => {
    server.restore();
    await database.dispose();
  });

  const post = (path: string, headers: Record<string, string>) =>
    POST(
      new Request(`http://localhost:3000/api/auth${path}`, {
        method: 'POST',
        body: JSON.stringify({ email: 'someone@example.org', password: 'a secret password', name: 'Someone' }),
        headers: { 'content-type': 'application/json', [clientAddressHeader]: '203.0.113.50', ...headers },
      }),
    );
  const auditRows = () =>
    database.database
      .select({
        action: auditLog.action,
        outcome: auditLog.outcome,
        actorUserId: auditLog.actorUserId,
        requestId: auditLog.requestId,
        clientAddress: auditLog.clientAddress,
        details: auditLog.details,
      })
      .from(auditLog)
      .orderBy(auditLog.id);

  it('audits an Origin refusal with its path, request id and client address, never the body', async () => {
    // better-auth skips its Origin check when NODE_ENV is 'test'; turn it back on, as it is in production.
    (await server.auth.$context).skipOriginCheck = false;
    const refused = await post('/sign-in/email', { cookie: 'a=b', origin: 'https://evil.example', 'x-request-id': 'req-auth-origin-1' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_ORIGIN' });
    const rows = await auditRows();
    expect(rows).toEqual([
      {
        action: 'auth.origin-refused',
        outcome: 'denied',
        actorUserId: null,
        requestId: 'req-auth-origin-1',
        clientAddress: '203.0.113.50',
        details: { path: '/api/auth/sign-in/email', method: 'POST', code: 'INVALID_ORIGIN', origin: 'https://evil.example' },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret');
  });

  it('audits every rate-limited answer (429) with its path, request id and client address', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      statuses.push((await post('/sign-up/email', { 'x-request-id': `req-auth-limit-${attempt}` })).status);
    }
    // Sign-up allows 5 a minute from one address (src/lib/server/auth.ts).
    expect(statuses.slice(5)).toEqual([429, 429]);
    const rows = (await auditRows()).filter((row) => row.action === 'auth.rate-limited');
    expect(rows).toEqual(
      [6, 7].map((attempt) => ({
        action: 'auth.rate-limited',
        outcome: 'denied',
        actorUserId: null,
        requestId: `req-auth-limit-${attempt}`,
        clientAddress: '203.0.113.50',
        details: { path: '/api/auth/sign-up/email', method: 'POST' },
      })),
    );
  });
});
