import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataSources, doseEvents, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { createDoseEventSource } from './create-dose-event-source';
import { recordDoseEvents } from './record-dose-events';
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
    { idempotencyKey: 'bottle-1:2026-11-22T08', patient: 'P-0001', scheduledAt: '2026-11-22T08:00:00Z', confirmedAt: '2026-11-22T08:04:00Z', status: 'taken' },
    { idempotencyKey: 'bottle-1:2026-11-22T20', patient: 'P-0001', scheduledAt: '2026-11-22T20:00:00Z', status: 'missed' },
    { idempotencyKey: 'bottle-1:bad-time', patient: 'P-0001', scheduledAt: 'yesterday evening', status: 'missed' },
    { idempotencyKey: 'bottle-1:stranger', patient: 'P-9999', scheduledAt: '2026-11-22T08:00:00Z', status: 'missed' },
    { idempotencyKey: 'bottle-1:no-confirmation', patient: 'P-0001', scheduledAt: '2026-11-23T08:00:00Z', status: 'taken' },
  ];

  it('stores the good events, reports each bad one by index and field, and ignores a retried batch', async () => {
    const { apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'Smart bottles, ward 3' });
    const first = await recordDoseEvents({ database: database.database, apiKey, body: { events } });
    expect(first).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 2, idempotencyKey: 'bottle-1:bad-time', field: 'scheduledAt', message: 'scheduledAt must be an ISO 8601 time with a zone, e.g. 2026-11-22T08:00:00Z' },
        { index: 3, idempotencyKey: 'bottle-1:stranger', field: 'patient', message: 'No patient has this pseudonym.' },
        { index: 4, idempotencyKey: 'bottle-1:no-confirmation', field: 'confirmedAt', message: 'confirmedAt is required when status is taken' },
      ],
    });
    const retry = await recordDoseEvents({ database: database.database, apiKey, body: { events: events.slice(0, 2) } });
    expect(retry).toEqual({ accepted: 0, duplicates: 2, rejected: [] });
    const stored = await database.database.select({ status: doseEvents.status }).from(doseEvents);
    expect(stored.map((row) => row.status).sort()).toEqual(['missed', 'taken']);
    const [source] = await database.database.select({ lastActivityAt: dataSources.lastActivityAt }).from(dataSources);
    expect(source?.lastActivityAt).not.toBeNull();
  });

  it('refuses a missing, unknown or revoked key, and a malformed batch', async () => {
    const { id, apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'App' });
    for (const key of [null, '', 'mdk_not-a-key']) {
      const refused = await recordDoseEvents({ database: database.database, apiKey: key, body: { events } }).catch((error: unknown) => error);
      expect((refused as AppError).httpStatus).toBe(401);
    }
    const malformed = await recordDoseEvents({ database: database.database, apiKey, body: { events: [] } }).catch((error: unknown) => error);
    expect((malformed as AppError).message).toBe('events must hold at least one event');
    await revokeDoseEventSource({ database: database.database, actor: admin, sourceId: id });
    const revoked = await recordDoseEvents({ database: database.database, apiKey, body: { events } }).catch((error: unknown) => error);
    expect((revoked as AppError).message).toBe('The API key is not valid or was revoked.');
    expect(await database.database.select().from(doseEvents)).toEqual([]);
  });

  it('lets only an admin create or revoke keys, and stores only a hash', async () => {
    const denied = await createDoseEventSource({ database: database.database, actor: clinician, name: 'x' }).catch((error: unknown) => error);
    expect((denied as AppError).httpStatus).toBe(403);
    const { id, apiKey } = await createDoseEventSource({ database: database.database, actor: admin, name: 'App' });
    const [row] = await database.database.select({ hash: dataSources.apiKeyHash }).from(dataSources).where(eq(dataSources.id, id));
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.hash).not.toContain(apiKey);
    const revokedByClinician = await revokeDoseEventSource({ database: database.database, actor: clinician, sourceId: id }).catch((error: unknown) => error);
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
