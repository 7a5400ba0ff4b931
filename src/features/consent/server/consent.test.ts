import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, consentEvents, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { applyConsentKeyword } from './apply-consent-keyword';
import { assertMessagingConsent, MessagingConsentMissingError } from './assert-messaging-consent';
import { getOwnConsents } from './get-own-consents';
import { getPatientConsents } from './get-patient-consents';
import { recordConsent } from './record-consent';
import { updateOwnConsents } from './update-own-consents';

const actor = (id: string): SessionUser => ({
  id,
  email: `${id}@example.org`,
  name: id,
  role: 'patient',
  phoneNumber: null,
  twoFactorEnabled: false,
});
const minutes = (count: number) => new Date(Date.UTC(2026, 10, 1, 9, count));

describe.each(testDatabaseBackends())('consent ledger on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;
  let otherPatientId: string;
  beforeEach(async () => {
    database = await backend.create();
    await database.database.insert(authUsers).values([
      { id: 'patient-user', name: 'P', email: 'p@example.org' },
      { id: 'other-user', name: 'O', email: 'o@example.org' },
      { id: 'staff-user', name: 'S', email: 's@example.org' },
    ]);
    const rows = await database.database
      .insert(patients)
      .values([
        { pseudonym: 'P-1', source: 'test', sourceRecordId: 'p1', userId: 'patient-user' },
        { pseudonym: 'P-2', source: 'test', sourceRecordId: 'p2', userId: 'other-user' },
      ])
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    patientId = rows.find((row) => row.pseudonym === 'P-1')!.id;
    otherPatientId = rows.find((row) => row.pseudonym === 'P-2')!.id;
  });
  afterEach(async () => {
    await database.dispose();
  });

  const guard = (channel: 'sms' | 'whatsapp' | 'app', at: Date, purpose: 'reminders' | 'research' = 'reminders') =>
    assertMessagingConsent({ database: database.database, patientId, channel, purpose, at });

  it('refuses without consent, after STOP on another channel, and allows again after START; history is kept', async () => {
    const db = database.database;
    await expect(guard('sms', minutes(0))).rejects.toThrow(MessagingConsentMissingError);
    await expect(guard('sms', minutes(0))).rejects.toMatchObject({
      code: 'forbidden',
      reason: 'never',
      channel: 'sms',
      purpose: 'reminders',
    });

    const granted = await recordConsent({
      database: db,
      patientId,
      channels: ['sms', 'whatsapp'],
      purposes: ['reminders', 'surveys'],
      granted: true,
      source: 'clinician',
      actorUserId: 'staff-user',
      at: minutes(1),
    });
    expect(granted).toHaveLength(4);
    await expect(guard('sms', minutes(2))).resolves.toBeUndefined();
    // Not yet in effect before the opt-in, and never for a purpose not consented to.
    await expect(guard('sms', minutes(0))).rejects.toThrow(MessagingConsentMissingError);
    await expect(guard('sms', minutes(2), 'research')).rejects.toMatchObject({ reason: 'never' });
    await expect(guard('app', minutes(2))).rejects.toThrow(MessagingConsentMissingError);

    const stop = await applyConsentKeyword({ database: db, patientId, channel: 'whatsapp', text: 'Stop', at: minutes(3) });
    expect(stop).toMatchObject({ action: 'opt-out', keyword: 'STOP', language: 'en' });
    expect(stop.reply).toMatch(/no more messages from us on any channel/);
    expect(stop.changes).toHaveLength(4);
    await expect(guard('sms', minutes(4))).rejects.toMatchObject({ reason: 'withdrawn' });
    await expect(guard('whatsapp', minutes(4))).rejects.toMatchObject({ reason: 'withdrawn' });
    // The state at a time before the STOP is still the opt-in (the guard reads the ledger as of `at`).
    await expect(guard('sms', minutes(2))).resolves.toBeUndefined();

    const start = await applyConsentKeyword({ database: db, patientId, channel: 'sms', text: 'UNSTOP', at: minutes(5) });
    expect(start.action).toBe('opt-in');
    // START restores on its channel what the STOP withdrew there, not elsewhere.
    expect(start.changes).toEqual([
      { channel: 'sms', purpose: 'reminders', granted: true },
      { channel: 'sms', purpose: 'surveys', granted: true },
    ]);
    await expect(guard('sms', minutes(6))).resolves.toBeUndefined();
    await expect(guard('whatsapp', minutes(6))).rejects.toMatchObject({ reason: 'withdrawn' });

    const consents = await getPatientConsents({ database: db, patientId });
    expect(consents.historyTotal).toBe(10);
    expect(consents.history.map((event) => [event.channel, event.purpose, event.granted, event.source])).toEqual([
      ['sms', 'surveys', true, 'sms-keyword'],
      ['sms', 'reminders', true, 'sms-keyword'],
      ['sms', 'surveys', false, 'whatsapp-keyword'],
      ['sms', 'reminders', false, 'whatsapp-keyword'],
      ['whatsapp', 'surveys', false, 'whatsapp-keyword'],
      ['whatsapp', 'reminders', false, 'whatsapp-keyword'],
      ['whatsapp', 'surveys', true, 'clinician'],
      ['whatsapp', 'reminders', true, 'clinician'],
      ['sms', 'surveys', true, 'clinician'],
      ['sms', 'reminders', true, 'clinician'],
    ]);
    expect(consents.current).toHaveLength(12);
    expect(consents.current.find((state) => state.channel === 'sms' && state.purpose === 'reminders')).toEqual({
      channel: 'sms',
      purpose: 'reminders',
      granted: true,
      source: 'sms-keyword',
      since: minutes(5).toISOString(),
    });
    // The other patient is untouched.
    expect((await getPatientConsents({ database: db, patientId: otherPatientId })).historyTotal).toBe(0);
  });

  it('answers HELP without changing anything, ignores ordinary replies, and knows Spanish', async () => {
    const db = database.database;
    const help = await applyConsentKeyword({ database: db, patientId, channel: 'sms', text: 'help' });
    expect(help.action).toBe('help');
    expect(help.reply).toMatch(/Reply STOP to stop all messages/);
    expect(help.changes).toEqual([]);
    expect(await applyConsentKeyword({ database: db, patientId, channel: 'sms', text: 'Yes, taken' })).toMatchObject({
      action: null,
      reply: null,
      changes: [],
    });
    // START with nothing to restore opts in to reminders on that channel only.
    const alta = await applyConsentKeyword({ database: db, patientId, channel: 'whatsapp', text: 'ALTA', at: minutes(1) });
    expect(alta).toMatchObject({
      action: 'opt-in',
      language: 'es',
      changes: [{ channel: 'whatsapp', purpose: 'reminders', granted: true }],
    });
    const baja = await applyConsentKeyword({ database: db, patientId, channel: 'app', text: 'Baja por favor', at: minutes(2) });
    expect(baja).toMatchObject({
      action: 'opt-out',
      language: 'es',
      changes: [{ channel: 'whatsapp', purpose: 'reminders', granted: false }],
    });
    // YES opts back in only someone a keyword opted out.
    const yes = await applyConsentKeyword({ database: db, patientId, channel: 'whatsapp', text: 'YES', at: minutes(3) });
    expect(yes).toMatchObject({ action: 'opt-in', changes: [{ channel: 'whatsapp', purpose: 'reminders', granted: true }] });
    expect((await applyConsentKeyword({ database: db, patientId, channel: 'whatsapp', text: 'YES', at: minutes(4) })).action).toBeNull();
  });

  it('writes only changes, keeps a first opt-out, and refuses an unknown patient', async () => {
    const db = database.database;
    const common = {
      database: db,
      patientId,
      channels: ['app'] as const,
      purposes: ['research'] as const,
      source: 'import' as const,
      actorUserId: null,
    };
    expect(await recordConsent({ ...common, granted: false })).toHaveLength(1);
    expect(await recordConsent({ ...common, granted: false })).toHaveLength(0);
    expect(await recordConsent({ ...common, granted: true })).toHaveLength(1);
    expect(await recordConsent({ ...common, granted: true })).toHaveLength(0);
    await expect(recordConsent({ ...common, patientId: '00000000-0000-4000-8000-000000000000', granted: true })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps the ledger append-only, yet lets a deleted account and a deleted patient go', async () => {
    const db = database.database;
    await updateOwnConsents({ database: db, actor: actor('patient-user'), input: { sms: ['reminders'], whatsapp: [], app: [] } });
    await expect(db.update(consentEvents).set({ granted: false })).rejects.toThrow();
    await db.delete(authUsers).where(eq(authUsers.id, 'patient-user'));
    const [row] = await db.select({ actor: consentEvents.actorUserId, granted: consentEvents.granted }).from(consentEvents);
    expect(row).toEqual({ actor: null, granted: true });
    await db.delete(patients).where(eq(patients.id, patientId));
    expect(await db.select({ id: consentEvents.id }).from(consentEvents)).toEqual([]);
  });

  it('lets a patient change only their own consents on /profile, audited; others are told consents apply to patients', async () => {
    const db = database.database;
    const own = await updateOwnConsents({
      database: db,
      actor: actor('patient-user'),
      input: { sms: ['reminders', 'education'], whatsapp: ['reminders'], app: [] },
      request: { requestId: 'r-1', clientAddress: '10.0.0.1' },
    });
    expect(own.patientId).toBe(patientId);
    expect(own.history.every((event) => event.source === 'profile' && event.granted)).toBe(true);
    expect(own.historyTotal).toBe(3);
    const afterOptOut = await updateOwnConsents({
      database: db,
      actor: actor('patient-user'),
      input: { sms: ['education'], whatsapp: ['reminders'], app: [] },
    });
    expect(afterOptOut.history[0]).toMatchObject({ channel: 'sms', purpose: 'reminders', granted: false, source: 'profile' });
    expect(afterOptOut.historyTotal).toBe(4);
    await expect(guard('sms', new Date())).rejects.toThrow(MessagingConsentMissingError);
    await expect(guard('whatsapp', new Date())).resolves.toBeUndefined();
    expect((await getPatientConsents({ database: db, patientId: otherPatientId })).historyTotal).toBe(0);

    await expect(
      updateOwnConsents({ database: db, actor: actor('staff-user'), input: { sms: [], whatsapp: [], app: [] } }),
    ).rejects.toMatchObject({
      code: 'forbidden',
      message: 'Consents apply to patients: your account is not linked to a patient record.',
    });
    expect(await getOwnConsents({ database: db, actor: actor('staff-user') })).toEqual({ status: 'no-patient-record' });
    expect(await getOwnConsents({ database: db, actor: actor('patient-user') })).toMatchObject({
      status: 'linked',
      consents: { patientId },
    });

    const audit = await db
      .select({ outcome: auditLog.outcome, actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'consent.update'))
      .orderBy(auditLog.id);
    expect(audit).toEqual([
      {
        outcome: 'success',
        actor: 'patient-user',
        details: { changes: ['whatsapp/reminders:in', 'sms/reminders:in', 'sms/education:in'] },
      },
      { outcome: 'success', actor: 'patient-user', details: { changes: ['sms/reminders:out'] } },
      { outcome: 'denied', actor: 'staff-user', details: { reason: 'no linked patient record' } },
    ]);
  });

  it('names every field at fault in a bad update', async () => {
    const error = await updateOwnConsents({
      database: database.database,
      actor: actor('patient-user'),
      input: { sms: ['reminders', 'spam'], app: 'yes', email: [] },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors).toMatchObject({
      sms: expect.any(String),
      app: expect.any(String),
      whatsapp: expect.any(String),
      email: expect.any(String),
    });
    expect(await database.database.select({ id: consentEvents.id }).from(consentEvents)).toEqual([]);
  });
});
