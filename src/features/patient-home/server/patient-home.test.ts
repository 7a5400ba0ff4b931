import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, dispensings, doseEvents, messages, patients, products, regimens } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { doseMinutes, doseSlotsOfDay } from '../dose-slots';
import { getPatientHome } from './get-patient-home';
import { recordDoseAnswer } from './record-dose-answer';
import { undoDoseAnswer } from './undo-dose-answer';
import { testSessionUser } from '@/lib/server/session-testing';

const user = testSessionUser;
const patientUser = user('patient-home-1', 'patient');
const otherPatientUser = user('patient-home-2', 'patient');
const unlinkedUser = user('patient-home-3', 'patient');
// 10:00 in London on Tuesday 24 November 2026 (GMT, so 10:00Z).
const now = new Date('2026-11-24T10:00:00Z');
const minutesLater = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

describe('dose slots', () => {
  it('uses the stated dose times when they name every dose, else spreads the doses from 08:00 to 22:00', () => {
    expect(doseMinutes({ dosesPerDay: 2, doseTimes: ['20:00', '08:30'] })).toEqual([510, 1200]);
    expect(doseMinutes({ dosesPerDay: 1, doseTimes: [] })).toEqual([480]);
    expect(doseMinutes({ dosesPerDay: 3, doseTimes: ['09:00'] })).toEqual([480, 900, 1320]);
    expect(doseMinutes({ dosesPerDay: 0.4, doseTimes: [] })).toEqual([]);
  });

  it('answers a slot with the dose recorded at its time, fills the open slots in time order, at local times across a clock change', () => {
    // 29 March 2026: London moves to BST at 01:00 UTC, so 08:00 local is 07:00Z.
    const day = Date.UTC(2026, 2, 29) / 86_400_000;
    const slots = doseSlotsOfDay({
      regimens: [{ productId: 'statin', medication: 'Statin', dosesPerDay: 2, doseTimes: ['08:00', '20:00'] }],
      recorded: [
        { id: 'evening', productId: 'statin', scheduledAt: new Date('2026-03-29T19:00:00Z'), status: 'skipped', source: 'app' },
        { id: 'a', productId: null, scheduledAt: new Date('2026-03-29T09:13:00Z'), status: 'taken', source: 'whatsapp-reply' },
      ],
      day,
      timeZone: 'Europe/London',
    });
    expect(slots.map((slot) => [slot.scheduledAt.toISOString(), slot.localTime, slot.recorded?.id ?? null])).toEqual([
      ['2026-03-29T07:00:00.000Z', '08:00', 'a'],
      ['2026-03-29T19:00:00.000Z', '20:00', 'evening'],
    ]);
  });
});

describe.each(testDatabaseBackends())('the patient home on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;

  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db.insert(authUsers).values(
      [patientUser, otherPatientUser, unlinkedUser].map((account) => ({
        id: account.id,
        email: account.email,
        name: account.name,
        emailVerified: true,
      })),
    );
    await db.insert(products).values({ id: 'home-statin', name: 'Atorva Home', genericName: 'atorvastatin' });
    const inserted = await db
      .insert(patients)
      .values([
        { pseudonym: 'HOME-1', source: 'test', sourceRecordId: 'home-1', userId: patientUser.id, timezone: 'Europe/London' },
        { pseudonym: 'HOME-2', source: 'test', sourceRecordId: 'home-2', userId: otherPatientUser.id, timezone: 'Europe/London' },
      ])
      .returning({ id: patients.id });
    patientId = inserted[0]!.id;
    for (const row of inserted) {
      await db.insert(regimens).values({
        patientId: row.id,
        productId: 'home-statin',
        dosesPerDay: 2,
        doseTimes: ['08:00', '20:00'],
        startDate: '2026-01-01',
        source: 'test',
        sourceRecordId: `regimen-${row.id}`,
      });
    }
    await db.insert(dispensings).values([
      { patientId, productId: 'home-statin', dispensedOn: '2026-10-01', daysSupply: 30, source: 'test', sourceRecordId: 'fill-1' },
      { patientId, productId: 'home-statin', dispensedOn: '2026-11-02', daysSupply: 30, source: 'test', sourceRecordId: 'fill-2' },
    ]);
    // Earlier this month: 3 taken, 1 missed; last month's dose does not count.
    await db.insert(doseEvents).values(
      [
        ['2026-11-03T08:00:00Z', 'taken'],
        ['2026-11-04T08:00:00Z', 'taken'],
        ['2026-11-05T08:00:00Z', 'taken'],
        ['2026-11-06T08:00:00Z', 'missed'],
        ['2026-10-30T08:00:00Z', 'missed'],
      ].map(([at, status], index) => ({
        patientId,
        productId: 'home-statin',
        scheduledAt: new Date(at!),
        status: status as 'taken' | 'missed',
        source: 'test',
        sourceRecordId: `dose-${index}`,
      })),
    );
    await db.insert(messages).values({
      patientId,
      channel: 'whatsapp',
      direction: 'outbound',
      body: 'Time for your morning dose.',
      sentAt: new Date('2026-11-24T07:45:00Z'),
      status: 'delivered',
      source: 'test',
      sourceRecordId: 'message-1',
    });
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('shows today’s doses, the next refill, this month’s answered doses and the latest messages', async () => {
    const home = await getPatientHome({ database: database.database, actor: patientUser, now });
    if (home.kind !== 'home') throw new Error('expected a home');
    expect(home.today.date).toBe('2026-11-24');
    expect(home.today.doses.map((dose) => [dose.localTime, dose.scheduledAt, dose.answer])).toEqual([
      ['08:00', '2026-11-24T08:00:00.000Z', null],
      ['20:00', '2026-11-24T20:00:00.000Z', null],
    ]);
    expect(home.nextRefill).toEqual({ medication: 'Atorva Home', dueOn: '2026-12-02', daysLeft: 8 });
    expect(home.month).toMatchObject({
      label: 'November 2026',
      from: '2026-11-01',
      through: '2026-11-24',
      taken: 3,
      missed: 1,
      answered: 4,
    });
    expect(home.messages).toEqual([
      expect.objectContaining({ direction: 'outbound', channel: 'whatsapp', text: 'Time for your morning dose.' }),
    ]);
    expect(await getPatientHome({ database: database.database, actor: unlinkedUser, now })).toEqual({ kind: 'no-record' });
    await expect(getPatientHome({ database: database.database, actor: user('c', 'clinician'), now })).rejects.toThrow('for patients');
  });

  it('records a tap as an app dose event once, lets it be undone for 5 minutes only, and refuses doses that are not today’s own', async () => {
    const db = database.database;
    const answer = (input: unknown, actor = patientUser, at = now) => recordDoseAnswer({ database: db, actor, input, now: at });
    const { doseEventId } = await answer({ productId: 'home-statin', scheduledAt: '2026-11-24T08:00:00.000Z', answer: 'taken' });
    const [event] = await db.select().from(doseEvents).where(eq(doseEvents.id, doseEventId));
    expect(event).toMatchObject({
      patientId,
      status: 'taken',
      source: 'app',
      confirmedAt: now,
      scheduledAt: new Date('2026-11-24T08:00:00Z'),
    });

    await expect(answer({ productId: 'home-statin', scheduledAt: '2026-11-24T08:00:00.000Z', answer: 'skipped' })).rejects.toThrow(
      'This dose already has an answer: taken in the app.',
    );
    await expect(answer({ productId: 'home-statin', scheduledAt: '2026-11-25T08:00:00.000Z', answer: 'taken' })).rejects.toThrow(
      'not one of your doses today',
    );
    await expect(answer({ productId: 'home-statin', scheduledAt: 'yesterday', answer: 'maybe' })).rejects.toMatchObject({
      fieldErrors: { scheduledAt: expect.any(String), answer: expect.any(String) },
    });
    // Another patient cannot take this answer back, and the evening dose of the other patient is theirs alone.
    await expect(undoDoseAnswer({ database: db, actor: otherPatientUser, input: { doseEventId }, now })).rejects.toThrow('not found');

    const home = await getPatientHome({ database: db, actor: patientUser, now: minutesLater(1) });
    if (home.kind !== 'home') throw new Error('expected a home');
    expect(home.today.doses[0]!.answer).toEqual({ status: 'taken', source: 'app', doseEventId, undoUntil: minutesLater(5).toISOString() });

    await undoDoseAnswer({ database: db, actor: patientUser, input: { doseEventId }, now: minutesLater(4) });
    expect(await db.select({ id: doseEvents.id }).from(doseEvents).where(eq(doseEvents.id, doseEventId))).toEqual([]);

    const evening = await answer({ productId: 'home-statin', scheduledAt: '2026-11-24T20:00:00.000Z', answer: 'skipped' });
    const later = await getPatientHome({ database: db, actor: patientUser, now: minutesLater(6) });
    if (later.kind !== 'home') throw new Error('expected a home');
    // The undone morning dose is open again; the evening answer can no longer be undone in the home's view…
    expect(later.today.doses.map((dose) => dose.answer?.status ?? null)).toEqual([null, 'skipped']);
    expect(later.today.doses[1]!.answer!.undoUntil).toBeNull();
    // …nor on the server.
    await expect(
      undoDoseAnswer({ database: db, actor: patientUser, input: { doseEventId: evening.doseEventId }, now: minutesLater(6) }),
    ).rejects.toThrow('can no longer be taken back');
  });

  it('refuses every other role, audited with the request, before reading the input or recording anything', async () => {
    const db = database.database;
    const request = { requestId: 'req-dose-answer-0001', clientAddress: '198.51.100.9' };
    for (const role of ['clinician', 'admin', 'drug-manufacturer', 'government-official'] as const) {
      const actor = user(`dose-${role}`, role);
      const dose = { productId: 'home-statin', scheduledAt: '2026-11-24T08:00:00.000Z', answer: 'taken' };
      await expect(recordDoseAnswer({ database: db, actor, input: dose, now, request })).rejects.toMatchObject({
        code: 'forbidden',
        message: 'Only patients answer for their own doses.',
      });
      await expect(
        undoDoseAnswer({ database: db, actor, input: { doseEventId: '00000000-0000-4000-8000-000000000000' }, now, request }),
      ).rejects.toMatchObject({ code: 'forbidden' });
    }
    expect(await db.select({ id: doseEvents.id }).from(doseEvents).where(eq(doseEvents.source, 'app'))).toEqual([]);
    const denied = await db
      .select({ action: auditLog.action, actor: auditLog.actorUserId, requestId: auditLog.requestId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.outcome, 'denied'));
    expect(denied).toHaveLength(8);
    expect(denied).toContainEqual({
      action: 'dose.answer',
      actor: 'dose-clinician',
      requestId: 'req-dose-answer-0001',
      details: { reason: 'needs doses:answer-own' },
    });
    expect(denied).toContainEqual(expect.objectContaining({ action: 'dose.answer-undo', actor: 'dose-admin' }));
  });
});
