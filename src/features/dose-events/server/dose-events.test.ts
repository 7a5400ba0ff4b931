import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, dataSources, doseEvents, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { createDoseEventSource } from './create-dose-event-source';
import { authenticateDoseEventSource } from './authenticate-dose-event-source';
import { DoseEventBatchRejected, recordDoseEvents } from './record-dose-events';
import { revokeDoseEventSource } from './revoke-dose-event-source';

const admin: SessionUser = { id: 'admin-1', email: 'a@x', name: 'A', role: 'admin', phoneNumber: null, twoFactorEnabled: false };
const clinician: SessionUser = { ...admin, id: 'clinician-1', role: 'clinician' };

describe.each(testDatabaseBackends())('dose-event API on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await database.database.insert(patients).values({ pseudonym: 'P-0001', source: 'test', sourceRecordId: '1' });
  });
  afterEach(async () => {
    await database.dispose();
  });

  const events = [
    {
      idempotencyKey: 'bottle-1:2026-11-22T08',
      patient: 'P-0001',
      scheduledAt: '2026-11-22T08:00:00Z',
      confirmedAt: '2026-11-22T08:04:00Z',
      status: 'taken',
    },
    { idempotencyKey: 'bottle-1:2026-11-22T20', patient: 'P-0001', scheduledAt: '2026-11-22T20:00:00Z', status: 'missed' },
    { idempotencyKey: 'bottle-1:bad-time', patient: 'P-0001', scheduledAt: 'yesterday evening', status: 'missed' },
    { idempotencyKey: 'bottle-1:stranger', patient: 'P-9999', scheduledAt: '2026-11-22T08:00:00Z', status: 'missed' },
    { idempotencyKey: 'bottle-1:no-confirmation', patient: 'P-0001', scheduledAt: '2026-11-23T08:00:00Z', status: 'taken' },
  ];

  const request = { requestId: 'request-test-1', clientAddress: '203.0.113.7' };

  async function sourceOf(apiKey: string) {
    return authenticateDoseEventSource({ database: database.database, apiKey, request });
  }

  it('stores a good batch in one go and ignores it when retried', async () => {
    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'Smart bottles, ward 3' });
    const source = await sourceOf(apiKey);
    expect(await recordDoseEvents({ database: database.database, source, body: { events: events.slice(0, 2) } })).toEqual({
      accepted: 2,
      duplicates: 0,
    });
    expect(await recordDoseEvents({ database: database.database, source, body: { events: events.slice(0, 2) } })).toEqual({
      accepted: 0,
      duplicates: 2,
    });
    const stored = await database.database.select({ status: doseEvents.status }).from(doseEvents);
    expect(stored.map((row) => row.status).sort()).toEqual(['missed', 'taken']);
    const [row] = await database.database.select({ lastActivityAt: dataSources.lastActivityAt }).from(dataSources);
    expect(row?.lastActivityAt).not.toBeNull();
  });

  it('stores nothing of a batch with a bad event, and names every bad event by index and field', async () => {
    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'Smart bottles, ward 3' });
    const refused = await recordDoseEvents({ database: database.database, source: await sourceOf(apiKey), body: { events } }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DoseEventBatchRejected);
    expect((refused as DoseEventBatchRejected).httpStatus).toBe(400);
    expect((refused as DoseEventBatchRejected).rejected).toEqual([
      {
        index: 2,
        idempotencyKey: 'bottle-1:bad-time',
        field: 'scheduledAt',
        message: 'scheduledAt must be an ISO 8601 time with a zone, e.g. 2026-11-22T08:00:00Z',
      },
      { index: 3, idempotencyKey: 'bottle-1:stranger', field: 'patient', message: 'No patient has this pseudonym.' },
      {
        index: 4,
        idempotencyKey: 'bottle-1:no-confirmation',
        field: 'confirmedAt',
        message: 'confirmedAt is required when status is taken',
      },
    ]);
    expect((refused as DoseEventBatchRejected).fieldErrors).toMatchObject({
      'events.2.scheduledAt': expect.any(String),
      'events.3.patient': 'No patient has this pseudonym.',
    });
    expect(await database.database.select().from(doseEvents)).toEqual([]);
  });

  it('refuses NUL bytes and malformed ids with the field named (400), storing nothing', async () => {
    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'App' });
    const source = await sourceOf(apiKey);
    const good = events[0]!;
    for (const [bad, field] of [
      [{ ...good, idempotencyKey: 'bottle\u0000-2' }, 'idempotencyKey'],
      [{ ...good, idempotencyKey: 'k2', patient: 'P-0001\u0000' }, 'patient'],
      [{ ...good, idempotencyKey: 'k3', patient: "P-0001' or 1=1" }, 'patient'],
      [{ ...good, idempotencyKey: 'k4', product: 'x'.repeat(500) }, 'product'],
      [{ ...good, idempotencyKey: 'k5', product: 'rx\u0000' }, 'product'],
      [{ ...good, idempotencyKey: 42 }, 'idempotencyKey'],
    ] as const) {
      const refused = await recordDoseEvents({ database: database.database, source, body: { events: [good, bad] } }).catch(
        (error: unknown) => error,
      );
      expect((refused as DoseEventBatchRejected).httpStatus).toBe(400);
      expect((refused as DoseEventBatchRejected).rejected.map((event) => [event.index, event.field])).toEqual([[1, field]]);
    }
    expect(await database.database.select().from(doseEvents)).toEqual([]);
  });

  it('refuses a missing, unknown or revoked key (audited with the request, never the key), and a malformed batch', async () => {
    const { id, apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'App' });
    for (const key of [null, '', 'mdk_not-a-key']) {
      const refused = await authenticateDoseEventSource({ database: database.database, apiKey: key, request }).catch(
        (error: unknown) => error,
      );
      expect((refused as AppError).httpStatus).toBe(401);
    }
    const malformed = await recordDoseEvents({ database: database.database, source: await sourceOf(apiKey), body: { events: [] } }).catch(
      (error: unknown) => error,
    );
    expect((malformed as AppError).message).toBe('The dose-event batch is not valid: events: events must hold at least one event');
    await revokeDoseEventSource({ database: database.database, actor: admin, sourceId: id });
    const revoked = await authenticateDoseEventSource({ database: database.database, apiKey, request }).catch((error: unknown) => error);
    expect((revoked as AppError).message).toBe('The API key is not valid or was revoked.');
    expect(await database.database.select().from(doseEvents)).toEqual([]);
    const refusals = await database.database
      .select({
        outcome: auditLog.outcome,
        requestId: auditLog.requestId,
        clientAddress: auditLog.clientAddress,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(eq(auditLog.action, 'dose-events.record'));
    expect(refusals).toEqual([
      { outcome: 'denied', requestId: 'request-test-1', clientAddress: '203.0.113.7', details: { reason: 'unknown API key' } },
      {
        outcome: 'denied',
        requestId: 'request-test-1',
        clientAddress: '203.0.113.7',
        details: { reason: 'revoked API key', sourceId: id },
      },
    ]);
    expect(JSON.stringify(refusals)).not.toContain('mdk_');
  });

  it('lets only an admin create or revoke keys, and stores only a hash', async () => {
    const denied = await createDoseEventSource({ database: database.database, actor: clinician, name: 'x', request }).catch(
      (error: unknown) => error,
    );
    expect((denied as AppError).httpStatus).toBe(403);
    const { id, apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'App', request });
    const audit = await database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome, requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog);
    expect(audit).toEqual([
      { action: 'api-key.create', outcome: 'denied', requestId: 'request-test-1', clientAddress: '203.0.113.7' },
      { action: 'api-key.create', outcome: 'success', requestId: 'request-test-1', clientAddress: '203.0.113.7' },
    ]);
    const [row] = await database.database.select({ hash: dataSources.apiKeyHash }).from(dataSources).where(eq(dataSources.id, id));
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.hash).not.toContain(apiKey);
    const revokedByClinician = await revokeDoseEventSource({ database: database.database, actor: clinician, sourceId: id }).catch(
      (error: unknown) => error,
    );
    expect((revokedByClinician as AppError).httpStatus).toBe(403);
  });

  it('names the field when a source name is blank or too long', async () => {
    for (const name of ['   ', 'x'.repeat(101)]) {
      const refused = await createDoseEventSource({ database: database.database, actor: admin, name }).catch((error: unknown) => error);
      expect((refused as AppError).httpStatus).toBe(400);
      expect((refused as AppError).fieldErrors).toEqual({ name: 'Give the source a name of 1 to 100 characters.' });
    }
    expect(await database.database.select().from(dataSources)).toEqual([]);
  });
});
