import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authUsers, dispensings, doseEvents, messages, organisationMemberships, organisations, patients, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { computePdc, dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import type { SessionUser } from '@/lib/server/session';
import { findReportingPeriod } from './adherence-period';
import { getComplianceJourney, MONTH_DAYS } from './get-compliance-journey';
import { getPatientProfile } from './get-patient-profile';

const now = new Date('2026-02-28T12:00:00Z');
const day = (iso: string) => {
  const [year, month, date] = iso.split('-').map(Number);
  return dayNumberFromCivil(year!, month!, date!);
};
// Supply lasts beyond today (28 February 2026), so the period ends today: [1 March 2025, 1 March 2026).
const periodEnd = day('2026-03-01');
const periodStart = periodEnd - 365;

const user = (id: string, role: SessionUser['role']): SessionUser => ({ id, email: `${id}@x.test`, name: id, role, phoneNumber: null, twoFactorEnabled: false });
const linkedPatient = user('patient-1', 'patient');
const unlinkedPatient = user('patient-2', 'patient');
const clinician = user('clinician-1', 'clinician');
const loneClinician = user('clinician-2', 'clinician');
const government = user('government-1', 'government-official');
const manufacturer = user('manufacturer-1', 'drug-manufacturer');
const admin = user('admin-1', 'admin');

type Fill = { day: number; daysSupply: number };
/** `count` fills of `supply` days, `every` days apart from `first`. */
const fillsEvery = (first: number, count: number, every: number, supply = 30): Fill[] => Array.from({ length: count }, (_, index) => ({ day: first + index * every, daysSupply: supply }));

let sequence = 0;
async function addPatient(
  database: Database,
  values: { pseudonym: string; organisationId?: string; userId?: string; persona?: string; synthetic?: boolean; productId?: string; fills: Fill[] },
): Promise<string> {
  const [row] = await database
    .insert(patients)
    .values({ pseudonym: values.pseudonym, source: 'test', sourceRecordId: values.pseudonym, organisationId: values.organisationId, userId: values.userId, persona: values.persona, synthetic: values.synthetic ?? false })
    .returning({ id: patients.id });
  if (values.fills.length > 0) {
    await database.insert(dispensings).values(
      values.fills.map((fill) => ({
        patientId: row!.id,
        productId: values.productId ?? 'statin',
        dispensedOn: isoFromDayNumber(fill.day),
        daysSupply: fill.daysSupply,
        source: 'test',
        sourceRecordId: `fill-${(sequence += 1)}`,
      })),
    );
  }
  return row!.id;
}

/** Every shown count of patients in a DTO: none may be 1–10. */
function shownCounts(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) value.forEach((entry) => shownCounts(entry, found));
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if ('suppressed' in record && 'display' in record && typeof record.count === 'number') found.push(record.count);
    Object.values(record).forEach((entry) => shownCounts(entry, found));
  }
  return found;
}

describe.each(testDatabaseBackends())('patient adherence on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values(['patient-1', 'patient-2', 'clinician-1', 'clinician-2'].map((id) => ({ id, name: id, email: `${id}@x.test` })));
    await db.insert(organisations).values([
      { id: 'org-a', name: 'Riverside Practice' },
      { id: 'org-b', name: 'Hilltop Clinic' },
    ]);
    await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
    await db.insert(products).values([
      { id: 'statin', name: 'Atorva 20', genericName: 'atorvastatin' },
      { id: 'inhaler', name: 'Breathe 100', genericName: 'budesonide' },
    ]);
    // Own patient: monthly fills of 30 days, every third one 20 days late (the last on day 360).
    const ownFills = Array.from({ length: 11 }, (_, index) => ({ day: periodStart + index * 30 + Math.floor(index / 3) * 20, daysSupply: 30 }));
    ids.own = await addPatient(db, { pseudonym: 'A-0001', organisationId: 'org-a', userId: 'patient-1', persona: 'routine', fills: ownFills });
    // Two fills 150 days apart: a gap over 60 days ends the first treatment episode.
    ids.colleague = await addPatient(db, { pseudonym: 'A-0002', organisationId: 'org-a', persona: 'forgetful', fills: [{ day: periodStart + 10, daysSupply: 30 }, { day: periodStart + 160, daysSupply: 90 }] });
    ids.other = await addPatient(db, { pseudonym: 'B-0001', organisationId: 'org-b', persona: 'routine', fills: fillsEvery(periodStart, 12, 30) });
    // Synthetic cohort: 15 "routine" on the statin, 3 "sceptic" on the inhaler (a group under 11).
    for (let index = 0; index < 18; index += 1) {
      const sceptic = index >= 15;
      ids[`synthetic-${index}`] = await addPatient(db, {
        pseudonym: `S-${String(index + 1).padStart(4, '0')}`,
        organisationId: 'org-b',
        persona: sceptic ? 'sceptic' : 'routine',
        synthetic: true,
        productId: sceptic ? 'inhaler' : 'statin',
        // Sceptics stop after four fills; the others refill every 30 days all year.
        fills: fillsEvery(periodStart + index, sceptic ? 4 : 12, 30),
      });
    }
    // A synthetic patient without fills is never the example.
    await addPatient(db, { pseudonym: 'S-0000', synthetic: true, fills: [] });

    await db.insert(doseEvents).values([
      { patientId: ids.own!, scheduledAt: new Date('2026-02-27T08:00:00Z'), confirmedAt: new Date('2026-02-27T08:10:00Z'), status: 'taken', source: 'test', sourceRecordId: 'd1' },
      { patientId: ids.own!, scheduledAt: new Date('2026-02-28T08:00:00Z'), status: 'missed', source: 'test', sourceRecordId: 'd2' },
      { patientId: ids.own!, scheduledAt: new Date('2026-02-26T08:00:00Z'), status: 'skipped', source: 'test', sourceRecordId: 'd3' },
    ]);
    await db.insert(messages).values([
      { patientId: ids.own!, channel: 'sms', direction: 'outbound', category: 'reminder', sentAt: new Date('2026-02-27T07:55:00Z'), status: 'read', statusHistory: [{ status: 'sent', at: '2026-02-27T07:55:00Z' }, { status: 'read', at: '2026-02-27T08:01:00Z' }], source: 'test', sourceRecordId: 'm1' },
      { patientId: ids.own!, channel: 'whatsapp', direction: 'outbound', category: 'education', sentAt: new Date('2026-02-20T07:55:00Z'), status: 'failed', source: 'test', sourceRecordId: 'm2' },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('ends the period today, or on the last supplied day of a data set that ended earlier', async () => {
    expect(await findReportingPeriod({ database: db, now })).toEqual({ start: periodStart, end: periodEnd });
    // A-0001's last fill (day 360 of the period, 30 days) lasts longest.
    const later = await findReportingPeriod({ database: db, now: new Date('2027-06-01T00:00:00Z') });
    expect(later.end).toBe(periodStart + 390);
  });

  describe('patient profile', () => {
    it('shows a patient their own record, with PDC, CMA windows, calendar and messages from the engine', async () => {
      const profile = await getPatientProfile({ database: db, actor: linkedPatient, now });
      if (profile.status !== 'ok') throw new Error(`expected a profile, got ${profile.status}`);
      expect(profile.access).toBe('self');
      expect(profile.patient.pseudonym).toBe('A-0001');
      expect(profile.choices).toEqual([]);
      expect(profile.period).toEqual({ start: '2025-03-01', end: '2026-02-28', days: 365 });

      const fills = Array.from({ length: 11 }, (_, index) => ({ day: periodStart + index * 30 + Math.floor(index / 3) * 20, daysSupply: 30, drug: 'statin' }));
      const expected = computePdc({ fills, periodStart, periodEnd });
      expect(profile.pdc).toEqual({ value: expected.pdc, coveredDays: expected.coveredDays, periodDays: 365, start: '2025-03-01', end: '2026-02-28' });
      expect(expected.coveredDays).toBeLessThan(365);

      // 90-day windows every 30 days across 365 days: 10 of them; CMA7/9 defined in each.
      expect(profile.cmaWindows).toHaveLength(10);
      expect(profile.cmaWindows[0]).toMatchObject({ start: '2025-03-01', end: '2025-05-29' });
      expect(profile.cmaWindows.every((window) => window.cma7 !== null && window.cma9 !== null)).toBe(true);

      // The late refills leave gaps of 20 days (three within the period).
      expect(profile.refillGaps.map((gap) => gap.days)).toEqual([20, 20, 20]);
      expect(profile.refillGaps[0]).toMatchObject({ medication: 'Atorva 20', from: isoFromDayNumber(periodStart + 90), days: 20 });

      expect(profile.calendar).toHaveLength(365);
      expect(profile.calendar.slice(-3)).toEqual([
        { date: '2026-02-26', status: 'skipped', takenDoses: 0, scheduledDoses: 1 },
        { date: '2026-02-27', status: 'taken', takenDoses: 1, scheduledDoses: 1 },
        { date: '2026-02-28', status: 'missed', takenDoses: 0, scheduledDoses: 1 },
      ]);
      expect(profile.calendar[0]).toEqual({ date: '2025-03-01', status: 'none', takenDoses: 0, scheduledDoses: 0 });
      expect(profile.doseAdherence).toMatchObject({ scheduledDoses: 3, confirmedDoses: 1, onTimeDoses: 1 });

      expect(profile.messages.map((message) => [message.channel, message.status])).toEqual([
        ['sms', 'read'],
        ['whatsapp', 'failed'],
      ]);
      expect(profile.messageStatusCounts).toEqual([
        { status: 'failed', count: 1 },
        { status: 'read', count: 1 },
      ]);
    });

    it('tells a patient without a linked record so', async () => {
      expect(await getPatientProfile({ database: db, actor: unlinkedPatient, now })).toEqual({ status: 'no-linked-record' });
    });

    it('lets a clinician choose only patients of their organisations', async () => {
      const first = await getPatientProfile({ database: db, actor: clinician, now });
      if (first.status !== 'ok') throw new Error(first.status);
      expect(first.access).toBe('organisation');
      expect(first.choices.map((choice) => choice.pseudonym)).toEqual(['A-0001', 'A-0002']);
      expect(first.patient.pseudonym).toBe('A-0001');

      const colleague = await getPatientProfile({ database: db, actor: clinician, patientId: ids.colleague!, now });
      if (colleague.status !== 'ok') throw new Error(colleague.status);
      expect(colleague.patient.pseudonym).toBe('A-0002');
      // Fills of 30 days on days 10 and 160: the 120-day gap (> 60) splits two episodes.
      expect(colleague.episodes).toEqual([
        { episode: 1, start: isoFromDayNumber(periodStart + 10), end: isoFromDayNumber(periodStart + 39), days: 30, ongoing: false },
        { episode: 2, start: isoFromDayNumber(periodStart + 160), end: isoFromDayNumber(periodStart + 249), days: 90, ongoing: false },
      ]);
      expect(colleague.pdc).toMatchObject({ coveredDays: 120, periodDays: 365 - 10 });

      const stranger = await getPatientProfile({ database: db, actor: clinician, patientId: ids.other!, now });
      expect(stranger.status).toBe('not-permitted');
      expect((await getPatientProfile({ database: db, actor: clinician, patientId: 'not-a-uuid', now })).status).toBe('not-permitted');
      expect(await getPatientProfile({ database: db, actor: loneClinician, now })).toEqual({ status: 'no-organisation' });
    });

    it('shows every other role the same de-identified synthetic example', async () => {
      for (const actor of [government, manufacturer, admin]) {
        const profile = await getPatientProfile({ database: db, actor, patientId: ids.own!, now });
        if (profile.status !== 'ok') throw new Error(profile.status);
        expect(profile.access).toBe('example');
        expect(profile.patient).toMatchObject({ pseudonym: 'S-0001', synthetic: true });
        expect(profile.choices).toEqual([]);
      }
    });

    it('refuses a visitor', async () => {
      await expect(getPatientProfile({ database: db, actor: null, now })).rejects.toThrow('No user logged in');
    });
  });

  describe('compliance journey', () => {
    it('hides every group under 11 from a government official, including by subtraction, and lists no one', async () => {
      const journey = await getComplianceJourney({ database: db, actor: government, now });
      expect(journey.suppressed).toBe(true);
      expect(journey.trajectories).toBeNull();
      expect(journey.cohort.patients.count).toBe(21);
      const counts = shownCounts(journey);
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.filter((count) => count > 0 && count < 11)).toEqual([]);

      const personas = Object.fromEntries(journey.persistence.byPersona.map((curve) => [curve.key, curve.patients.display]));
      // routine 17, forgetful 1, sceptic 3: the two small ones read "<11", and the totals still protect them.
      expect(personas).toEqual({ forgetful: '<11', routine: '17', sceptic: '<11' });
      const sceptic = journey.persistence.byPersona.find((curve) => curve.key === 'sceptic')!;
      expect(sceptic.points.every((point) => point.persisting === null)).toBe(true);
      const products = Object.fromEntries(journey.persistence.byProduct.map((curve) => [curve.key, curve.patients.display]));
      // Only two products: showing 18 of 21 would reveal the 3, so the larger one is hidden too.
      expect(products).toEqual({ 'Atorva 20': 'suppressed', 'Breathe 100': '<11' });
      for (const month of journey.pdcByMonth) {
        for (const band of month.bands) expect(band.patients.count === null || band.patients.count === 0 || band.patients.count >= 11).toBe(true);
      }
    });

    it('shows an admin every figure and the individual trajectories', async () => {
      const journey = await getComplianceJourney({ database: db, actor: admin, now });
      expect(journey.suppressed).toBe(false);
      expect(journey.scope).toBe('all');
      expect(journey.persistence.byPersona.find((curve) => curve.key === 'sceptic')?.patients.count).toBe(3);
      expect(journey.trajectories?.total).toBe(21);
      // Sceptics stop after four 30-day fills: persistence falls by 3 of 21 by month 6 (gap > 60 days).
      const overall = journey.persistence.overall.points;
      expect(overall[0]).toMatchObject({ month: 0, persisting: 1 });
      expect(overall[6]!.persisting).toBeLessThan(1);

      // Monthly PDC of one patient, checked against computePdc on the same fills.
      const b1 = journey.trajectories?.shown.find((trajectory) => trajectory.pseudonym === 'B-0001');
      const fills = fillsEvery(periodStart, 12, 30).map((fill) => ({ ...fill, drug: 'statin' }));
      const expected = computePdc({ fills, periodStart: periodStart + MONTH_DAYS, periodEnd: periodStart + 2 * MONTH_DAYS }).pdc;
      expect(b1?.monthlyPdc[1]).toBe(expected);
      const month1 = journey.pdcByMonth[0]!;
      expect(month1.patients.count).toBe(21);
      expect(month1.bands.reduce((sum, band) => sum + (band.patients.count ?? 0), 0)).toBe(21);
    });

    it('gives a clinician their organisations only, with trajectories', async () => {
      const journey = await getComplianceJourney({ database: db, actor: clinician, now });
      expect(journey.scope).toBe('organisation');
      expect(journey.suppressed).toBe(false);
      expect(journey.trajectories?.shown.map((trajectory) => trajectory.pseudonym)).toEqual(['A-0001', 'A-0002']);
      const lone = await getComplianceJourney({ database: db, actor: loneClinician, now });
      expect(lone.cohort.patients.count).toBe(0);
      expect(lone.pdcByMonth[0]?.quartiles).toBeNull();
    });

    it('suppresses for patients and manufacturers too', async () => {
      for (const actor of [linkedPatient, manufacturer]) {
        const journey = await getComplianceJourney({ database: db, actor, now });
        expect(journey.suppressed).toBe(true);
        expect(journey.trajectories).toBeNull();
        expect(shownCounts(journey).filter((count) => count > 0 && count < 11)).toEqual([]);
      }
    });
  });
});
