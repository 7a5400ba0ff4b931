import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import {
  authUsers,
  companyMemberships,
  dispensings,
  doseEvents,
  drugCompanies,
  organisationMemberships,
  organisations,
  patients,
  products,
  regimens,
  userProfiles,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { cohortConditions, findCohortPatients, findCohortScope, scopeProductIds, type Viewer } from './cohort-scope';
import {
  loadCohortDispensings,
  loadPatientDispensings,
  loadPatientDoseEvents,
  loadPatientRegimens,
  medicationEventsFrom,
} from './medication-events';
import { addMonths } from '@/engine/aggregation/reporting-period';
import { countCohortPatients, findLatestDataDay, findReportingPeriod, lookbackStart, periodView } from './reporting-period';

const now = new Date('2026-02-28T12:00:00Z');
const today = dayNumberFromIso('2026-02-28');

const viewer = (id: string, role: Viewer['role']): Viewer => ({ id, role });
const clinician = viewer('clinician-1', 'clinician');
const loneClinician = viewer('clinician-2', 'clinician');
/** Member of Company A (the statin). */
const manufacturer = viewer('manufacturer-1', 'drug-manufacturer');
/** Member of Company A and Company B, with only Company B (the inhaler) selected. */
const selectiveManufacturer = viewer('manufacturer-2', 'drug-manufacturer');
const companylessManufacturer = viewer('manufacturer-3', 'drug-manufacturer');

let sequence = 0;
async function addPatient(
  database: Database,
  values: { pseudonym: string; organisationId?: string; fills: { day: number; productId: string; daysSupply?: number }[] },
): Promise<string> {
  const [row] = await database
    .insert(patients)
    .values({
      pseudonym: values.pseudonym,
      source: 'test',
      sourceRecordId: values.pseudonym,
      organisationId: values.organisationId,
      synthetic: true,
    })
    .returning({ id: patients.id });
  if (values.fills.length > 0) {
    await database.insert(dispensings).values(
      values.fills.map((fill) => ({
        patientId: row!.id,
        productId: fill.productId,
        dispensedOn: isoFromDayNumber(fill.day),
        daysSupply: fill.daysSupply ?? 30,
        source: 'test',
        sourceRecordId: `fill-${(sequence += 1)}`,
      })),
    );
  }
  return row!.id;
}

describe.each(testDatabaseBackends())('shared read layer on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values(
      ['clinician-1', 'clinician-2', 'manufacturer-1', 'manufacturer-2', 'manufacturer-3'].map((id) => ({
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
    // A-0001 (org A): the statin, the last fill 10 days ago for 30 days. B-0001 (org B): the inhaler long ago, the statin lately.
    ids.a = await addPatient(db, {
      pseudonym: 'A-0001',
      organisationId: 'org-a',
      fills: [
        { day: today - 100, productId: 'statin' },
        { day: today - 10, productId: 'statin' },
      ],
    });
    ids.b = await addPatient(db, {
      pseudonym: 'B-0001',
      organisationId: 'org-b',
      fills: [
        { day: today - 800, productId: 'inhaler' },
        { day: today - 500, productId: 'inhaler' },
        { day: today - 40, productId: 'statin' },
      ],
    });
  });
  afterEach(async () => {
    await database.dispose();
  });

  describe('cohort scope', () => {
    it('gives clinicians their organisations, everyone else but manufacturers every patient', async () => {
      expect(await findCohortScope({ database: db, actor: clinician })).toEqual({ kind: 'organisation', organisationIds: ['org-a'] });
      expect(await findCohortScope({ database: db, actor: loneClinician })).toEqual({ kind: 'organisation', organisationIds: [] });
      for (const role of ['patient', 'government-official', 'admin'] as const) {
        expect(await findCohortScope({ database: db, actor: viewer('someone', role) })).toEqual({ kind: 'all' });
      }
      const scope = await findCohortScope({ database: db, actor: clinician });
      expect((await findCohortPatients({ database: db, scope })).map((patient) => patient.pseudonym)).toEqual(['A-0001']);
      expect(await findCohortPatients({ database: db, scope: { kind: 'organisation', organisationIds: [] } })).toEqual([]);
      expect((await findCohortPatients({ database: db, scope: { kind: 'all' } })).map((patient) => patient.pseudonym)).toEqual([
        'A-0001',
        'B-0001',
      ]);
    });

    it('gives manufacturers their selected companies’ products, else all of theirs, and nothing without a company', async () => {
      expect(await findCohortScope({ database: db, actor: manufacturer })).toEqual({
        kind: 'companies',
        companies: [{ id: 'company-a', name: 'Company A' }],
        productIds: ['statin'],
      });
      const selected = await findCohortScope({ database: db, actor: selectiveManufacturer });
      expect(selected).toEqual({ kind: 'companies', companies: [{ id: 'company-b', name: 'Company B' }], productIds: ['inhaler'] });
      expect(scopeProductIds(selected)).toEqual(['inhaler']);
      // A selection naming only a company they do not belong to counts as no selection: all of theirs.
      await db
        .update(userProfiles)
        .set({ selectedDrugCompanies: { 'company-c': 'Company C' } })
        .where(eq(userProfiles.uid, 'manufacturer-2'));
      const stale = await findCohortScope({ database: db, actor: selectiveManufacturer });
      expect(stale.kind === 'companies' && stale.companies.map((company) => company.name)).toEqual(['Company A', 'Company B']);
      const none = await findCohortScope({ database: db, actor: companylessManufacturer });
      expect(none).toEqual({ kind: 'no-company' });
      expect(scopeProductIds(none)).toEqual([]);
      expect(cohortConditions(db, none)).toBeNull();
      expect(scopeProductIds({ kind: 'all' })).toBeNull();
    });

    it('draws a manufacturer’s cohort from patients ever dispensed their products, with only those dispensings', async () => {
      const scope = await findCohortScope({ database: db, actor: selectiveManufacturer });
      expect((await findCohortPatients({ database: db, scope })).map((patient) => patient.pseudonym)).toEqual(['B-0001']);
      const fills = await loadCohortDispensings({ database: db, scope, from: today - 1000, to: today + 1 });
      expect([...fills.keys()]).toEqual([ids.b]);
      expect(fills.get(ids.b!)!.map((fill) => [fill.productId, fill.productName])).toEqual([
        ['inhaler', 'Breathe 100'],
        ['inhaler', 'Breathe 100'],
      ]);
    });
  });

  describe('reporting period and medication events', () => {
    it('ends the period on the latest day of the viewer’s data — a dispensing or an observed dose — never after today', async () => {
      const scopeOf = (actor: Viewer) => findCohortScope({ database: db, actor });
      // Everyone: A-0001's fill 10 days ago is the latest record. Supply lasting beyond it does not count.
      const all = await findReportingPeriod({ database: db, scope: { kind: 'all' }, now });
      expect(all).toMatchObject({ asOf: today - 10, latestData: today - 10, end: today - 9, notice: null });
      expect(isoFromDayNumber(all.start)).toBe(isoFromDayNumber(addMonths(today - 9, -12)));
      // The selective manufacturer sees only the inhaler: its last fill was 500 days ago.
      expect(await findLatestDataDay({ database: db, scope: await scopeOf(selectiveManufacturer), now })).toBe(today - 500);
      // An observed inhaler dose moves their date; an 'unknown' one (nothing observed) and another product's do not.
      await db.insert(doseEvents).values([
        {
          patientId: ids.b!,
          productId: 'inhaler',
          scheduledAt: new Date((today - 300) * 86_400_000 + 8 * 3_600_000),
          status: 'taken',
          source: 'test',
          sourceRecordId: 'd1',
        },
        {
          patientId: ids.b!,
          productId: 'inhaler',
          scheduledAt: new Date((today - 200) * 86_400_000),
          status: 'unknown',
          source: 'test',
          sourceRecordId: 'd2',
        },
        {
          patientId: ids.b!,
          productId: 'statin',
          scheduledAt: new Date((today - 5) * 86_400_000),
          status: 'missed',
          source: 'test',
          sourceRecordId: 'd3',
        },
      ]);
      expect(await findLatestDataDay({ database: db, scope: await scopeOf(selectiveManufacturer), now })).toBe(today - 300);
      expect(await findLatestDataDay({ database: db, scope: { kind: 'all' }, now })).toBe(today - 5);
      // The clinician's organisation holds A-0001 only; a clinician without one has no data, so the period ends today.
      expect(await findLatestDataDay({ database: db, scope: await scopeOf(clinician), now })).toBe(today - 10);
      const lone = await findReportingPeriod({ database: db, scope: await scopeOf(loneClinician), now });
      expect(lone).toMatchObject({ asOf: today, latestData: null, end: today + 1 });
      // Rows dated after today (a bad import) neither move the date nor put the period in the future.
      await addPatient(db, { pseudonym: 'F-0001', organisationId: 'org-a', fills: [{ day: today + 3000, productId: 'statin' }] });
      expect(await findLatestDataDay({ database: db, scope: { kind: 'all' }, now })).toBe(today - 5);
      // Later, the same data gives the same period: it is the data's, not the clock's.
      const later = await findReportingPeriod({ database: db, scope: await scopeOf(clinician), now: new Date('2027-06-01T00:00:00Z') });
      expect(later).toMatchObject({ asOf: today - 10, end: today - 9 });
    });

    it('resolves a chosen period against the same as-of date', async () => {
      const period = await findReportingPeriod({ database: db, scope: { kind: 'all' }, choice: { kind: 'last-months', months: 3 }, now });
      expect(period.end).toBe(today - 9);
      expect(period.start).toBe(addMonths(today - 9, -3));
      expect(periodView(period)).toMatchObject({ end: isoFromDayNumber(today - 10), asOf: isoFromDayNumber(today - 10) });
    });

    it('counts a scope’s patients and those with a dispensing in the period, hiding a small difference from privacy roles', async () => {
      await addPatient(db, { pseudonym: 'N-0001', organisationId: 'org-a', fills: [] });
      const period = { start: today - 50, end: today + 1 };
      expect(await countCohortPatients({ database: db, scope: { kind: 'all' }, period, suppressed: false })).toEqual({
        patients: 3,
        withDispensingInPeriod: 2,
      });
      // One patient without a dispensing in the period: a small group, so the total is not given to a privacy role.
      expect(await countCohortPatients({ database: db, scope: { kind: 'all' }, period, suppressed: true })).toEqual({
        patients: null,
        withDispensingInPeriod: 2,
      });
      const manufacturerScope = await findCohortScope({ database: db, actor: selectiveManufacturer });
      expect(await countCohortPatients({ database: db, scope: manufacturerScope, period, suppressed: false })).toEqual({
        patients: 1,
        withDispensingInPeriod: 0,
      });
      expect(
        await countCohortPatients({ database: db, scope: { kind: 'organisation', organisationIds: [] }, period, suppressed: false }),
      ).toEqual({ patients: 0, withDispensingInPeriod: 0 });
    });

    it('loads a scope’s fills from the look-back year on, by patient, in date order', async () => {
      const period = { start: today + 1 - 365, end: today + 1 };
      expect(lookbackStart(period)).toBe(period.start - 365);
      const fills = await loadCohortDispensings({ database: db, scope: { kind: 'all' }, from: lookbackStart(period), to: period.end });
      // B-0001's inhaler 800 days ago is before the look-back year; 500 days ago is inside it.
      expect(fills.get(ids.b!)!.map((fill) => fill.dispensedOn)).toEqual([isoFromDayNumber(today - 500), isoFromDayNumber(today - 40)]);
      expect(medicationEventsFrom(fills.get(ids.a!)!, period.end)).toEqual([
        { day: today - 100, duration: 30, dose: 1, medicationClass: 'statin' },
        { day: today - 10, duration: 30, dose: 1, medicationClass: 'statin' },
      ]);
      // Events on or after the end are left out.
      expect(medicationEventsFrom(fills.get(ids.a!)!, today - 10)).toHaveLength(1);
    });

    it('loads one patient’s dispensings, regimens and dose events, narrowed to products when asked', async () => {
      await db.insert(regimens).values([
        {
          patientId: ids.b!,
          productId: 'inhaler',
          dosesPerDay: 2,
          startDate: isoFromDayNumber(today - 800),
          source: 'test',
          sourceRecordId: 'r1',
        },
        {
          patientId: ids.b!,
          productId: 'statin',
          dosesPerDay: 1,
          startDate: isoFromDayNumber(today - 40),
          source: 'test',
          sourceRecordId: 'r2',
        },
      ]);
      await db.insert(doseEvents).values([
        {
          patientId: ids.b!,
          productId: 'statin',
          scheduledAt: new Date('2026-02-27T08:00:00Z'),
          status: 'taken',
          source: 'test',
          sourceRecordId: 'd1',
        },
        {
          patientId: ids.b!,
          productId: 'inhaler',
          scheduledAt: new Date('2026-02-27T09:00:00Z'),
          status: 'missed',
          source: 'test',
          sourceRecordId: 'd2',
        },
        {
          patientId: ids.b!,
          productId: 'statin',
          scheduledAt: new Date('2026-01-01T08:00:00Z'),
          status: 'taken',
          source: 'test',
          sourceRecordId: 'd3',
        },
      ]);
      expect((await loadPatientDispensings({ database: db, patientId: ids.b!, productIds: null })).map((fill) => fill.productId)).toEqual([
        'inhaler',
        'inhaler',
        'statin',
      ]);
      expect(
        (await loadPatientDispensings({ database: db, patientId: ids.b!, productIds: ['statin'] })).map((fill) => fill.productId),
      ).toEqual(['statin']);
      expect(
        (await loadPatientRegimens({ database: db, patientId: ids.b!, productIds: null })).map((regimen) => regimen.productName),
      ).toEqual(['Breathe 100', 'Atorva 20']);
      expect(
        (await loadPatientRegimens({ database: db, patientId: ids.b!, productIds: ['inhaler'] })).map((regimen) => regimen.dosesPerDay),
      ).toEqual([2]);
      const window = { from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') };
      expect(
        (await loadPatientDoseEvents({ database: db, patientId: ids.b!, productIds: null, ...window })).map((dose) => dose.status).sort(),
      ).toEqual(['missed', 'taken']);
      expect(
        (await loadPatientDoseEvents({ database: db, patientId: ids.b!, productIds: ['statin'], ...window })).map((dose) => dose.status),
      ).toEqual(['taken']);
    });
  });
});
