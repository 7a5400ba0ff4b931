import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import {
  auditLog,
  authUsers,
  companyMemberships,
  dispensings,
  doseEvents,
  drugCompanies,
  messages,
  organisationMemberships,
  organisations,
  patients,
  products,
  regimens,
  userProfiles,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { computePdc, dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import { findReportingPeriod } from '@/db/queries/reporting-period';
import { auditPage, type PageDescription } from '@/engine/aggregation/page-suppression';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import { type ComplianceJourney, type ComplianceJourneyResult, getComplianceJourney, MONTH_DAYS } from './get-compliance-journey';
import { getPatientProfile } from './get-patient-profile';
import { testSessionUser } from '@/lib/server/session-testing';

const now = new Date('2026-02-28T12:00:00Z');
const day = (iso: string) => {
  const [year, month, date] = iso.split('-').map(Number);
  return dayNumberFromCivil(year!, month!, date!);
};
// A dose is observed today (28 February 2026), the latest day of data, so the period ends today: [1 March 2025, 1 March 2026).
const periodEnd = day('2026-03-01');
const periodStart = periodEnd - 365;

const user = testSessionUser;
const linkedPatient = user('patient-1', 'patient');
const unlinkedPatient = user('patient-2', 'patient');
const clinician = user('clinician-1', 'clinician');
const loneClinician = user('clinician-2', 'clinician');
const government = user('government-1', 'government-official');
/** Member of Company A (the statin). */
const manufacturer = user('manufacturer-1', 'drug-manufacturer');
/** Member of Company A and Company B, with only Company B (the inhaler) selected. */
const selectiveManufacturer = user('manufacturer-2', 'drug-manufacturer');
/** Member of no company. */
const companylessManufacturer = user('manufacturer-3', 'drug-manufacturer');
const admin = user('admin-1', 'admin');

type Fill = { day: number; daysSupply: number; productId?: string };
/** `count` fills of `supply` days, `every` days apart from `first`. */
const fillsEvery = (first: number, count: number, every: number, supply = 30): Fill[] =>
  Array.from({ length: count }, (_, index) => ({ day: first + index * every, daysSupply: supply }));

let sequence = 0;
async function addPatient(
  database: Database,
  values: {
    pseudonym: string;
    organisationId?: string;
    userId?: string;
    persona?: string;
    synthetic?: boolean;
    productId?: string;
    fills: Fill[];
  },
): Promise<string> {
  const [row] = await database
    .insert(patients)
    .values({
      pseudonym: values.pseudonym,
      source: 'test',
      sourceRecordId: values.pseudonym,
      organisationId: values.organisationId,
      userId: values.userId,
      persona: values.persona,
      synthetic: values.synthetic ?? false,
    })
    .returning({ id: patients.id });
  if (values.fills.length > 0) {
    await database.insert(dispensings).values(
      values.fills.map((fill) => ({
        patientId: row!.id,
        productId: fill.productId ?? values.productId ?? 'statin',
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

function ok(result: ComplianceJourneyResult): ComplianceJourney {
  if (result.status !== 'ok') throw new Error(`expected a journey, got ${result.status}`);
  return result;
}

/**
 * Groups shown beside their total: either none is hidden, or at least two are, so that subtracting the shown
 * groups from the total never gives one hidden group.
 */
function expectNoSingleHiddenGroup(total: ShownCount, groups: readonly ShownCount[]) {
  if (total.suppressed) return;
  const hidden = groups.filter((group) => group.suppressed).length;
  expect(hidden === 0 || hidden >= 2, `${hidden} hidden of ${groups.length}`).toBe(true);
}

/**
 * The counts of a journey page as a reader sees them, each group once (its size in the PDC and persistence
 * tables is one figure), with the sums and orderings a reader knows between them.
 */
function journeyPage(journey: ComplianceJourney) {
  const cells = new Map<string, ShownCount>();
  const cell = (id: string, value: ShownCount) => {
    const earlier = cells.get(id);
    if (earlier !== undefined) expect(value, id).toEqual(earlier);
    cells.set(id, value);
    return id;
  };
  const sums: { total: string; parts: string[] }[] = [];
  const orders: { smaller: string; larger: string }[] = [];
  cell('cohort', journey.cohort.patients);
  cell('cohort', journey.persistence.overall.patients);
  journey.persistence.overall.points.forEach((point, index) => {
    cell(index === 0 ? 'cohort' : `at-risk:${point.month}`, point.atRisk);
    if (index > 0) orders.push({ smaller: `at-risk:${point.month}`, larger: index === 1 ? 'cohort' : `at-risk:${point.month - 1}` });
  });
  for (const [name, groups, curves] of [
    ['persona', journey.pdcByPersona, journey.persistence.byPersona],
    ['product', journey.pdcByProduct, journey.persistence.byProduct],
  ] as const) {
    sums.push({ total: 'cohort', parts: groups.map((group) => cell(`${name}:${group.key}`, group.patients)) });
    journey.pdcByMonth.forEach((month, index) => {
      sums.push({
        total: cell(`month:${month.month}`, month.patients),
        parts: groups.map((group) => cell(`${name}:${group.key}:${month.month}`, group.months[index]!.patients)),
      });
      for (const group of groups)
        if (group.months[index]!.adherentShare !== null) expect(group.months[index]!.patients.suppressed).toBe(false);
    });
    for (const curve of curves) {
      const atRisk = curve.points.map((point, index) =>
        cell(index === 0 ? `${name}:${curve.key}` : `at-risk:${name}:${curve.key}:${point.month}`, point.atRisk),
      );
      cell(`${name}:${curve.key}`, curve.patients);
      atRisk.slice(1).forEach((id, index) => orders.push({ smaller: id, larger: atRisk[index]! }));
    }
    journey.persistence.overall.points.forEach((point, index) => {
      if (index > 0)
        sums.push({ total: `at-risk:${point.month}`, parts: curves.map((curve) => `at-risk:${name}:${curve.key}:${point.month}`) });
    });
  }
  journey.pdcByMonth.forEach((month) =>
    sums.push({ total: `month:${month.month}`, parts: month.bands.map((band) => cell(`band:${month.month}:${band.key}`, band.patients)) }),
  );
  return { cells, sums, orders };
}

describe.each(testDatabaseBackends())('patient adherence on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values(
      ['patient-1', 'patient-2', 'clinician-1', 'clinician-2', 'manufacturer-1', 'manufacturer-2', 'manufacturer-3'].map((id) => ({
        id,
        name: id,
        email: `${id}@x.test`,
      })),
    );
    await db.insert(organisations).values([
      { id: 'org-a', name: 'Riverside Practice' },
      { id: 'org-b', name: 'Hilltop Clinic' },
    ]);
    await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
    await db.insert(drugCompanies).values([
      { id: 'company-a', name: 'Company A' },
      { id: 'company-b', name: 'Company B' },
      { id: 'company-c', name: 'Company C' },
    ]);
    await db.insert(products).values([
      { id: 'statin', companyId: 'company-a', name: 'Atorva 20', genericName: 'atorvastatin' },
      { id: 'inhaler', companyId: 'company-b', name: 'Breathe 100', genericName: 'budesonide' },
    ]);
    await db.insert(companyMemberships).values([
      { userId: 'manufacturer-1', companyId: 'company-a' },
      { userId: 'manufacturer-2', companyId: 'company-a' },
      { userId: 'manufacturer-2', companyId: 'company-b' },
    ]);
    await db.insert(userProfiles).values([
      { uid: 'manufacturer-1', role: 'drug-manufacturer', selectedDrugCompanies: {}, updatedUnix: 1 },
      { uid: 'manufacturer-2', role: 'drug-manufacturer', selectedDrugCompanies: { 'company-b': 'Company B' }, updatedUnix: 1 },
    ]);
    // Own patient: monthly fills of 30 days, every third one 20 days late (the last on day 360).
    const ownFills = Array.from({ length: 11 }, (_, index) => ({
      day: periodStart + index * 30 + Math.floor(index / 3) * 20,
      daysSupply: 30,
    }));
    ids.own = await addPatient(db, {
      pseudonym: 'A-0001',
      organisationId: 'org-a',
      userId: 'patient-1',
      persona: 'routine',
      fills: ownFills,
    });
    // Two fills 150 days apart: a gap over 60 days ends the first treatment episode.
    ids.colleague = await addPatient(db, {
      pseudonym: 'A-0002',
      organisationId: 'org-a',
      persona: 'forgetful',
      fills: [
        { day: periodStart + 10, daysSupply: 30 },
        { day: periodStart + 160, daysSupply: 90 },
      ],
    });
    ids.other = await addPatient(db, {
      pseudonym: 'B-0001',
      organisationId: 'org-b',
      persona: 'routine',
      fills: fillsEvery(periodStart, 12, 30),
    });
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
    // On both companies' products: the inhaler monthly all year (first, on day 0), the statin three times from day 5.
    // Company A's view sees only the statin: this patient stops after 90 days (a gap of more than 60).
    ids.mixed = await addPatient(db, {
      pseudonym: 'M-0001',
      organisationId: 'org-b',
      persona: 'routine',
      fills: [...fillsEvery(periodStart, 12, 30).map((fill) => ({ ...fill, productId: 'inhaler' })), ...fillsEvery(periodStart + 5, 3, 30)],
    });
    // The first sceptic's regimens name both products; Company B's example shows only its own.
    await db.insert(regimens).values([
      {
        patientId: ids['synthetic-15']!,
        productId: 'inhaler',
        dosesPerDay: 2,
        startDate: isoFromDayNumber(periodStart),
        source: 'test',
        sourceRecordId: 'r1',
      },
      {
        patientId: ids['synthetic-15']!,
        productId: 'statin',
        dosesPerDay: 1,
        startDate: isoFromDayNumber(periodStart),
        source: 'test',
        sourceRecordId: 'r2',
      },
    ]);
    // A synthetic patient without fills is never the example.
    await addPatient(db, { pseudonym: 'S-0000', synthetic: true, fills: [] });

    await db.insert(doseEvents).values([
      {
        patientId: ids.own!,
        scheduledAt: new Date('2026-02-27T08:00:00Z'),
        confirmedAt: new Date('2026-02-27T08:10:00Z'),
        status: 'taken',
        source: 'test',
        sourceRecordId: 'd1',
      },
      { patientId: ids.own!, scheduledAt: new Date('2026-02-28T08:00:00Z'), status: 'missed', source: 'test', sourceRecordId: 'd2' },
      { patientId: ids.own!, scheduledAt: new Date('2026-02-26T08:00:00Z'), status: 'skipped', source: 'test', sourceRecordId: 'd3' },
    ]);
    await db.insert(messages).values([
      {
        patientId: ids.own!,
        channel: 'sms',
        direction: 'outbound',
        category: 'reminder',
        body: 'Time for your evening dose.',
        sentAt: new Date('2026-02-27T07:55:00Z'),
        status: 'read',
        statusHistory: [
          { status: 'sent', at: '2026-02-27T07:55:00Z' },
          { status: 'read', at: '2026-02-27T08:01:00Z' },
        ],
        source: 'test',
        sourceRecordId: 'm1',
      },
      {
        patientId: ids.own!,
        channel: 'whatsapp',
        direction: 'outbound',
        category: 'education',
        sentAt: new Date('2026-02-20T07:55:00Z'),
        status: 'failed',
        source: 'test',
        sourceRecordId: 'm2',
      },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('reads the period the shared read layer gives (ending today here: a dose was observed today)', async () => {
    expect(await findReportingPeriod({ database: db, scope: { kind: 'all' }, now })).toMatchObject({
      start: periodStart,
      end: periodEnd,
      asOf: periodEnd - 1,
    });
  });

  describe('patient profile', () => {
    it('shows a patient their own record, with PDC, CMA windows, calendar and messages from the engine', async () => {
      const profile = await getPatientProfile({ database: db, actor: linkedPatient, now });
      if (profile.status !== 'ok') throw new Error(`expected a profile, got ${profile.status}`);
      expect(profile.access).toBe('self');
      expect(profile.patient.pseudonym).toBe('A-0001');
      expect(profile.patient.messagingProgramme).toBeNull();
      expect(profile.choices).toEqual([]);
      expect(profile.period).toMatchObject({ start: '2025-03-01', end: '2026-02-28', asOf: '2026-02-28', days: 365, notice: null });

      const fills = Array.from({ length: 11 }, (_, index) => ({
        day: periodStart + index * 30 + Math.floor(index / 3) * 20,
        daysSupply: 30,
        drug: 'statin',
      }));
      const expected = computePdc({ fills, periodStart, periodEnd });
      expect(profile.pdc).toEqual({
        value: expected.pdc,
        coveredDays: expected.coveredDays,
        periodDays: 365,
        start: '2025-03-01',
        end: '2026-02-28',
      });
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

      // Confirmations (1 of 3) and refills tell different stories: the page says so in one sentence.
      expect(profile.dosesAndRefills).toMatchObject({ confirmedDoses: 1, reportedDoses: 3, refillPdc: expected.pdc, disagree: true });
      expect(profile.dosesAndRefills.sentence).toMatch(
        /^Confirmed 1 of 3 reported doses \(33%\); refills cover \d+% of days\. They disagree\./,
      );

      // Each message with its text as sent.
      expect(profile.messages.map((message) => [message.channel, message.status, message.body])).toEqual([
        ['sms', 'read', 'Time for your evening dose.'],
        ['whatsapp', 'failed', null],
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

    it('audits a request for a patient the viewer may not see (request id, address, actor; no pseudonym)', async () => {
      const request = { requestId: 'request-profile-1', clientAddress: '192.0.2.7' };
      await getPatientProfile({ database: db, actor: clinician, patientId: ids.colleague!, now, request });
      await getPatientProfile({ database: db, actor: linkedPatient, now, request });
      expect(await db.select({ id: auditLog.id }).from(auditLog)).toEqual([]);
      expect((await getPatientProfile({ database: db, actor: clinician, patientId: ids.other!, now, request })).status).toBe(
        'not-permitted',
      );
      await getPatientProfile({ database: db, actor: clinician, patientId: 'B-0001 <script>', now, request });
      const own = await getPatientProfile({ database: db, actor: linkedPatient, patientId: ids.colleague!, now, request });
      expect(own.status === 'ok' && own.patient.pseudonym).toBe('A-0001');
      const example = await getPatientProfile({ database: db, actor: government, patientId: ids.own!, now, request });
      expect(example.status === 'ok' && example.access).toBe('example');
      const rows = await db
        .select({
          action: auditLog.action,
          outcome: auditLog.outcome,
          actorUserId: auditLog.actorUserId,
          targetUserId: auditLog.targetUserId,
          requestId: auditLog.requestId,
          clientAddress: auditLog.clientAddress,
          details: auditLog.details,
        })
        .from(auditLog)
        .orderBy(auditLog.id);
      const row = (actorUserId: string, role: string, requestedPatient: string) => ({
        action: 'patient-profile.view',
        outcome: 'denied',
        actorUserId,
        targetUserId: null,
        requestId: 'request-profile-1',
        clientAddress: '192.0.2.7',
        details: { role, requestedPatient },
      });
      expect(rows).toEqual([
        row(clinician.id, 'clinician', ids.other!),
        row(clinician.id, 'clinician', 'malformed'),
        row(linkedPatient.id, 'patient', ids.colleague!),
        row(government.id, 'government-official', ids.own!),
      ]);
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
      const journey = ok(await getComplianceJourney({ database: db, actor: government, now }));
      expect(journey.suppressed).toBe(true);
      expect(journey.trajectories).toBeNull();
      expect(journey.cohort.patients.count).toBe(22);
      const counts = shownCounts(journey);
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.filter((count) => count > 0 && count < 11)).toEqual([]);

      const personas = Object.fromEntries(journey.persistence.byPersona.map((curve) => [curve.key, curve.patients.display]));
      // routine 18, forgetful 1, sceptic 3: the two small ones read "<11". Showing the 18 would let a reader
      // pin the forgetful group to 1 (the sceptics' 3 at risk follow from month 2's figures), so it is hidden too.
      expect(personas).toEqual({ forgetful: '<11', routine: 'suppressed', sceptic: '<11' });
      const sceptic = journey.persistence.byPersona.find((curve) => curve.key === 'sceptic')!;
      expect(sceptic.points.every((point) => point.persisting === null)).toBe(true);
      const byProduct = Object.fromEntries(journey.persistence.byProduct.map((curve) => [curve.key, curve.patients.display]));
      // Only two products: showing 18 of 22 would reveal the 4, so the larger one is hidden too.
      expect(byProduct).toEqual({ inhaler: '<11', statin: 'suppressed' });
      for (const month of journey.pdcByMonth) {
        for (const band of month.bands)
          expect(band.patients.count === null || band.patients.count === 0 || band.patients.count >= 11).toBe(true);
      }
      // 22 patients, 21 of them synthetic: "1 real" would be derivable, so the synthetic count is hidden too.
      expect(journey.cohort.synthetic).toMatchObject({ suppressed: true, display: 'suppressed' });
    });

    it('shows a privacy role the monthly PDC per persona, suppressed month by month against the month’s total', async () => {
      const journey = ok(await getComplianceJourney({ database: db, actor: government, now }));
      expect(journey.pdcByPersona.map((group) => group.key)).toEqual(['forgetful', 'routine', 'sceptic']);
      const routine = journey.pdcByPersona.find((group) => group.key === 'routine')!;
      const scepticGroup = journey.pdcByPersona.find((group) => group.key === 'sceptic')!;
      // Month 1: everyone is covered; routine (18) is shown, the sceptics (3) and the forgetful patient (1) are not.
      expect(routine.months[0]).toMatchObject({ patients: { count: 18 }, quartiles: { median: 1 }, adherentShare: 1 });
      expect(scepticGroup.months[0]).toMatchObject({ patients: { display: '<11' }, quartiles: null, adherentShare: null });
      journey.pdcByMonth.forEach((month, index) => {
        expectNoSingleHiddenGroup(
          month.patients,
          journey.pdcByPersona.map((group) => group.months[index]!.patients),
        );
        expectNoSingleHiddenGroup(
          month.patients,
          journey.pdcByProduct.map((group) => group.months[index]!.patients),
        );
      });
      journey.persistence.overall.points.forEach((point, month) => {
        expectNoSingleHiddenGroup(
          point.atRisk,
          journey.persistence.byPersona.map((curve) => curve.points[month]!.atRisk),
        );
      });
    });

    it('shows an admin every figure and the individual trajectories', async () => {
      const journey = ok(await getComplianceJourney({ database: db, actor: admin, now }));
      expect(journey.suppressed).toBe(false);
      expect(journey.scope).toBe('all');
      expect(journey.persistence.byPersona.find((curve) => curve.key === 'sceptic')?.patients.count).toBe(3);
      expect(journey.trajectories?.total).toBe(22);
      // Sceptics stop after four 30-day fills: persistence falls by 3 of 22 by month 6 (gap > 60 days).
      const overall = journey.persistence.overall.points;
      expect(overall[0]).toMatchObject({ month: 0, persisting: 1 });
      expect(overall[6]!.persisting).toBeLessThan(1);

      // Monthly PDC of one patient, checked against computePdc on the same fills.
      const b1 = journey.trajectories?.shown.find((trajectory) => trajectory.pseudonym === 'B-0001');
      const fills = fillsEvery(periodStart, 12, 30).map((fill) => ({ ...fill, drug: 'statin' }));
      const expected = computePdc({ fills, periodStart: periodStart + MONTH_DAYS, periodEnd: periodStart + 2 * MONTH_DAYS }).pdc;
      expect(b1?.monthlyPdc[1]).toBe(expected);
      const month1 = journey.pdcByMonth[0]!;
      expect(month1.patients.count).toBe(22);
      expect(month1.bands.reduce((sum, band) => sum + (band.patients.count ?? 0), 0)).toBe(22);
      // The product of a journey is the medicine of the first fill: M-0001 started on the inhaler.
      expect(Object.fromEntries(journey.persistence.byProduct.map((curve) => [curve.key, curve.patients.count]))).toEqual({
        inhaler: 4,
        statin: 18,
      });
      expect(journey.options.products).toEqual([
        { value: 'statin', label: 'Atorva 20' },
        { value: 'inhaler', label: 'Breathe 100' },
      ]);
      expect(journey.options.personas.map((option) => option.value)).toEqual(['forgetful', 'routine', 'sceptic']);
    });

    it('narrows the whole page to one persona or product for an admin', async () => {
      const sceptics = ok(await getComplianceJourney({ database: db, actor: admin, filters: { persona: 'sceptic', product: null }, now }));
      expect(sceptics.cohort.patients.count).toBe(3);
      expect(sceptics.trajectories?.shown.map((trajectory) => trajectory.pseudonym)).toEqual(['S-0016', 'S-0017', 'S-0018']);
      expect(sceptics.pdcByMonth[0]!.patients.count).toBe(3);
      expect(sceptics.persistence.byPersona.map((curve) => curve.key)).toEqual(['sceptic']);
      expect(sceptics.pdcByPersona.map((group) => group.key)).toEqual(['sceptic']);
      expect(sceptics.withheld).toEqual([]);

      const inhaler = ok(await getComplianceJourney({ database: db, actor: admin, filters: { persona: null, product: 'inhaler' }, now }));
      expect(inhaler.trajectories?.shown.map((trajectory) => trajectory.pseudonym)).toEqual(['M-0001', 'S-0016', 'S-0017', 'S-0018']);
      expect(inhaler.persistence.byPersona.map((curve) => [curve.key, curve.patients.count])).toEqual([
        ['routine', 1],
        ['sceptic', 3],
      ]);
      // The filtered cohort is the group of the whole cohort's page: the same curve.
      const whole = ok(await getComplianceJourney({ database: db, actor: admin, now }));
      expect(inhaler.persistence.overall.points).toEqual(whole.persistence.byProduct.find((curve) => curve.key === 'inhaler')!.points);

      const both = ok(await getComplianceJourney({ database: db, actor: admin, filters: { persona: 'routine', product: 'inhaler' }, now }));
      expect(both.trajectories?.shown.map((trajectory) => trajectory.pseudonym)).toEqual(['M-0001']);
    });

    it('gives a privacy role, within one group, only that group’s figures as the whole page suppresses them', async () => {
      const whole = ok(await getComplianceJourney({ database: db, actor: government, now }));
      const routine = ok(
        await getComplianceJourney({ database: db, actor: government, filters: { persona: 'routine', product: null }, now }),
      );
      const routineCurve = whole.persistence.byPersona.find((curve) => curve.key === 'routine')!;
      expect(routine.cohort.patients).toEqual(routineCurve.patients);
      expect(routine.persistence.overall).toEqual(routineCurve);
      expect(routine.pdcByMonth.map(({ bands, ...month }) => (expect(bands).toEqual([]), month))).toEqual(
        whole.pdcByPersona.find((group) => group.key === 'routine')!.months,
      );
      expect(routine.withheld).toEqual(['bands', 'product']);
      expect(routine.persistence.byProduct).toEqual([]);
      expect(routine.cohort.synthetic).toBeNull();
      expect(routine.trajectories).toBeNull();

      // A filtered cohort that is itself small shows nothing but "<11".
      const sceptics = ok(
        await getComplianceJourney({ database: db, actor: government, filters: { persona: 'sceptic', product: null }, now }),
      );
      expect(sceptics.cohort.patients.display).toBe('<11');
      expect(
        sceptics.pdcByMonth.every((month) => month.quartiles === null && month.adherentShare === null && month.bands.length === 0),
      ).toBe(true);
      expect(sceptics.persistence.overall.points.every((point) => point.persisting === null)).toBe(true);
      const inhaler = ok(
        await getComplianceJourney({ database: db, actor: government, filters: { persona: null, product: 'inhaler' }, now }),
      );
      expect(inhaler.cohort.patients.display).toBe('<11');
      expect(inhaler.withheld).toEqual(['bands', 'persona']);
      for (const view of [routine, sceptics, inhaler]) expect(shownCounts(view).filter((count) => count > 0 && count < 11)).toEqual([]);

      // Persona × product would cross-tabulate: not for privacy roles.
      const both = await getComplianceJourney({ database: db, actor: government, filters: { persona: 'routine', product: 'statin' }, now });
      expect(both.status).toBe('filters-not-combined');
    });

    it('names the field of a persona or product that is not in the cohort', async () => {
      const persona = await getComplianceJourney({ database: db, actor: admin, filters: { persona: 'nobody', product: null }, now });
      expect(persona).toMatchObject({ status: 'invalid-filter', field: 'persona' });
      if (persona.status === 'invalid-filter') expect(persona.message).toMatch(/^persona: /);
      const product = await getComplianceJourney({ database: db, actor: admin, filters: { persona: null, product: 'nothing' }, now });
      expect(product).toMatchObject({ status: 'invalid-filter', field: 'product' });
    });

    it('gives a clinician their organisations only, with trajectories', async () => {
      const journey = ok(await getComplianceJourney({ database: db, actor: clinician, now }));
      expect(journey.scope).toBe('organisation');
      expect(journey.suppressed).toBe(false);
      expect(journey.trajectories?.shown.map((trajectory) => trajectory.pseudonym)).toEqual(['A-0001', 'A-0002']);
      const lone = ok(await getComplianceJourney({ database: db, actor: loneClinician, now }));
      expect(lone.cohort.patients.count).toBe(0);
      expect(lone.pdcByMonth[0]?.quartiles).toBeNull();
    });

    it('suppresses for patients too', async () => {
      const journey = ok(await getComplianceJourney({ database: db, actor: linkedPatient, now }));
      expect(journey.suppressed).toBe(true);
      expect(journey.scope).toBe('all');
      expect(journey.trajectories).toBeNull();
      expect(shownCounts(journey).filter((count) => count > 0 && count < 11)).toEqual([]);
    });

    it('leaves no relation of the whole page with exactly one hidden count, and nothing a reader can solve for (issue 10 item 6)', async () => {
      // Beside the base cohort: 30 "steady" patients on the statin who stop at different times, and a persona of 2.
      for (let index = 0; index < 30; index += 1) {
        await addPatient(db, {
          pseudonym: `P-${String(index).padStart(4, '0')}`,
          organisationId: 'org-b',
          persona: 'steady',
          synthetic: true,
          fills: fillsEvery(periodStart + index, 3 + (index % 10), 30),
        });
      }
      for (let index = 0; index < 2; index += 1) {
        await addPatient(db, {
          pseudonym: `R-${index}`,
          organisationId: 'org-b',
          persona: 'rare',
          synthetic: true,
          productId: 'inhaler',
          fills: fillsEvery(periodStart + 3, 12, 30),
        });
      }
      const journey = ok(await getComplianceJourney({ database: db, actor: government, now }));
      expect(journey.cohort.patients.count).toBe(54);
      expect(journey.persistence.byPersona.find((curve) => curve.key === 'rare')!.patients.display).toBe('<11');

      const { cells, sums, orders } = journeyPage(journey);
      const hidden = (id: string) => cells.get(id)!.suppressed;
      expect([...cells.keys()].filter(hidden).length).toBeGreaterThan(0);
      for (const relation of sums) {
        const members = [relation.total, ...relation.parts].filter(hidden);
        expect(members.length, `${relation.total} = ${relation.parts.join(' + ')}`).not.toBe(1);
      }
      // A reader substituting every shown count into every sum, again and again, solves for no hidden one.
      const known = new Map([...cells].filter(([, value]) => !value.suppressed).map(([id, value]) => [id, value.count!]));
      for (let progress = true; progress;) {
        progress = false;
        for (const relation of sums) {
          const unknown = [relation.total, ...relation.parts].filter((id) => !known.has(id));
          if (unknown.length !== 1) continue;
          const partsKnown = relation.parts.filter((id) => known.has(id)).reduce((sum, id) => sum + known.get(id)!, 0);
          known.set(unknown[0]!, unknown[0] === relation.total ? partsKnown : known.get(relation.total)! - partsKnown);
          progress = true;
        }
      }
      expect([...known.keys()].filter(hidden)).toEqual([]);
      expect(shownCounts(journey).filter((count) => count > 0 && count < 11)).toEqual([]);

      // A reader who also uses the labels ("<11": 1–10, "suppressed": 11 or more) and that patients at risk never
      // grow narrows no small group to fewer than 3 values, nor pins any hidden one (the true counts: an admin's page).
      const truth = journeyPage(ok(await getComplianceJourney({ database: db, actor: admin, now }))).cells;
      const page: PageDescription = { cells: [...cells.keys()].map((id) => ({ id, count: truth.get(id)!.count! })), sums, orders };
      const hiddenIds = new Set([...cells.keys()].filter(hidden));
      for (const id of hiddenIds) expect(cells.get(id)!.reason, id).toBe(truth.get(id)!.count! < 11 ? 'small' : 'complementary');
      expect(auditPage(page, hiddenIds)).toMatchObject({ singleHidden: [], narrow: [] });
    });
  });

  describe('manufacturers see only their own products', () => {
    it('draws the cohort from the products of the manufacturer’s companies, and only those dispensings', async () => {
      const journey = ok(await getComplianceJourney({ database: db, actor: manufacturer, now }));
      expect(journey).toMatchObject({ status: 'ok', scope: 'companies', companies: ['Company A'], suppressed: true, trajectories: null });
      // Everyone dispensed the statin: A-0001, A-0002, B-0001, 15 synthetic and M-0001.
      expect(journey.cohort.patients.count).toBe(19);
      expect(journey.options.products).toEqual([{ value: 'statin', label: 'Atorva 20' }]);
      expect(journey.persistence.byProduct.map((curve) => curve.key)).toEqual(['statin']);
      expect(journey.pdcByProduct.map((group) => group.key)).toEqual(['statin']);
      // Nothing of Company B's product, not even its name.
      const everything = JSON.stringify(journey);
      expect(everything).not.toContain('inhaler');
      expect(everything).not.toContain('Breathe');
      expect(everything).not.toContain('sceptic'); // the sceptics take only the inhaler
      // Without the inhaler's fills, A-0002 stops after 30 days: 18 of 19 persist after a month. (M-0001 stops
      // the statin after 90 days, 17 of 19 then, but in so small a cohort the page hides those months' figures.)
      expect(journey.persistence.overall.points[1]!.persisting).toBeCloseTo(18 / 19, 12);
      expect(shownCounts(journey).filter((count) => count > 0 && count < 11)).toEqual([]);
    });

    it('refuses another company’s product in the same words as a product that does not exist', async () => {
      const foreign = await getComplianceJourney({
        database: db,
        actor: manufacturer,
        filters: { persona: null, product: 'inhaler' },
        now,
      });
      const missing = await getComplianceJourney({
        database: db,
        actor: manufacturer,
        filters: { persona: null, product: 'no-such-product' },
        now,
      });
      if (foreign.status !== 'invalid-filter' || missing.status !== 'invalid-filter') throw new Error('expected invalid filters');
      expect(foreign.field).toBe('product');
      expect(foreign.message.replace('inhaler', 'X')).toBe(missing.message.replace('no-such-product', 'X'));
      expect(JSON.stringify(foreign.options)).not.toContain('inhaler');
    });

    it('narrows to the selected companies the manufacturer belongs to, and ignores others', async () => {
      const selected = ok(await getComplianceJourney({ database: db, actor: selectiveManufacturer, now }));
      expect(selected.companies).toEqual(['Company B']);
      expect(selected.options.products).toEqual([{ value: 'inhaler', label: 'Breathe 100' }]);
      // Four patients on the inhaler: a small cohort shows "<11" only.
      expect(selected.cohort.patients.display).toBe('<11');
      expect(JSON.stringify(selected)).not.toContain('Atorva');

      // A selection naming only a company they do not belong to counts as no selection: all of theirs.
      await db
        .update(userProfiles)
        .set({ selectedDrugCompanies: { 'company-c': 'Company C' } })
        .where(eq(userProfiles.uid, 'manufacturer-2'));
      const stale = ok(await getComplianceJourney({ database: db, actor: selectiveManufacturer, now }));
      expect(stale.companies).toEqual(['Company A', 'Company B']);
      expect(stale.options.products.map((option) => option.value).sort()).toEqual(['inhaler', 'statin']);
    });

    it('tells a manufacturer without a company so, and shows them nothing', async () => {
      expect(await getComplianceJourney({ database: db, actor: companylessManufacturer, now })).toEqual({ status: 'no-company' });
      expect(await getPatientProfile({ database: db, actor: companylessManufacturer, now })).toEqual({ status: 'no-company' });
    });

    it('shows a manufacturer an example patient on their own products, with those products only', async () => {
      const profile = await getPatientProfile({ database: db, actor: selectiveManufacturer, now });
      if (profile.status !== 'ok') throw new Error(profile.status);
      expect(profile.patient.pseudonym).toBe('S-0016');
      expect(profile.regimens.map((regimen) => regimen.medication)).toEqual(['Breathe 100']);
      expect(JSON.stringify(profile)).not.toContain('Atorva');
    });
  });
});
