import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authUsers, dispensings, jobs, organisationMemberships, organisations, patients, products, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { isAppError } from '@/lib/errors';
import { getAdminHome } from './get-admin-home';
import { getCareTeamHome } from './get-care-team-home';
import { testSessionUser } from '@/lib/server/session-testing';

const now = new Date('2026-03-10T09:00:00Z');
const user = testSessionUser;
const clinician = user('clinician-1', 'clinician');
const loneClinician = user('clinician-2', 'clinician');
const admin = user('admin-1', 'admin');
const patientUser = user('patient-1', 'patient');

/** The data ends on 1 March 2026 (the last fill): the period ends that day, its last 7 days are 23 Feb – 1 Mar. */
const lastDay = dayNumberFromIso('2026-03-01');

async function addPatient(
  database: Database,
  pseudonym: string,
  organisationId: string,
  fills: { day: number; days?: number; product?: string }[],
) {
  const [row] = await database
    .insert(patients)
    .values({ pseudonym, source: 'test', sourceRecordId: pseudonym, organisationId, synthetic: true })
    .returning({ id: patients.id });
  await database.insert(dispensings).values(
    fills.map((fill, index) => ({
      patientId: row!.id,
      productId: fill.product ?? 'statin',
      dispensedOn: isoFromDayNumber(fill.day),
      daysSupply: fill.days ?? 30,
      source: 'test',
      sourceRecordId: `${pseudonym}-${index}`,
    })),
  );
  return row!.id;
}

const refused = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return isAppError(error) ? error.code : 'other';
  }
  return 'allowed';
};

describe.each(testDatabaseBackends())('role homes on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db
      .insert(authUsers)
      .values([clinician, loneClinician, admin, patientUser].map((actor) => ({ id: actor.id, name: actor.name, email: actor.email })));
    await db.insert(userProfiles).values([
      { uid: clinician.id, role: 'clinician', updatedUnix: 1 },
      { uid: loneClinician.id, role: 'clinician', updatedUnix: 1 },
      { uid: admin.id, role: 'admin', updatedUnix: 1 },
      { uid: patientUser.id, role: 'patient', updatedUnix: 1 },
    ]);
    await db.insert(organisations).values([
      { id: 'org-a', name: 'Riverside Practice' },
      { id: 'org-b', name: 'Hilltop Clinic' },
    ]);
    await db.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-a' });
    await db.insert(products).values([
      { id: 'statin', name: 'Atorva 20', genericName: 'atorvastatin' },
      { id: 'inhaler', name: 'Breathe 100', genericName: 'budesonide' },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('lists the organisation’s patients whose supply ran out in the last 7 days, earliest first, with the medicines by name', async () => {
    // Ran out on 24 February (30 days from 25 January) and on 26 February: both lapsed this week.
    const late = await addPatient(db, 'A-late', 'org-a', [{ day: dayNumberFromIso('2026-01-25') }]);
    const both = await addPatient(db, 'A-both', 'org-a', [
      { day: dayNumberFromIso('2026-01-27') },
      { day: dayNumberFromIso('2026-01-27'), product: 'inhaler' },
    ]);
    // Ran out on 10 February: lapsed, but not this week. Covered to the end: not lapsed.
    await addPatient(db, 'A-earlier', 'org-a', [{ day: dayNumberFromIso('2026-01-11') }]);
    await addPatient(db, 'A-covered', 'org-a', [{ day: lastDay }]);
    // Another organisation's patient who lapsed this week: not the clinician's.
    await addPatient(db, 'B-late', 'org-b', [{ day: dayNumberFromIso('2026-01-26') }]);

    const home = await getCareTeamHome({ database: db, actor: clinician, now });
    expect(home.hasOrganisation).toBe(true);
    expect(home.period.end).toBe('2026-03-01');
    expect(home.lapseWindowStart).toBe('2026-02-23');
    expect(home.lapsed).toEqual([
      { patientId: late, pseudonym: 'A-late', medicines: ['Atorva 20'], since: '2026-02-24' },
      { patientId: both, pseudonym: 'A-both', medicines: ['Atorva 20', 'Breathe 100'], since: '2026-02-26' },
    ]);
  });

  it('says so when the clinician belongs to no organisation, and refuses other roles', async () => {
    await addPatient(db, 'B-late', 'org-b', [{ day: dayNumberFromIso('2026-01-26') }]);
    expect(await getCareTeamHome({ database: db, actor: loneClinician, now })).toMatchObject({ hasOrganisation: false, lapsed: [] });
    expect(await refused(getCareTeamHome({ database: db, actor: patientUser, now }))).toBe('forbidden');
    expect(await refused(getCareTeamHome({ database: db, actor: null, now }))).toBe('unauthenticated');
  });

  it('counts waiting and running imports, failed jobs of the last 7 days and accounts by role', async () => {
    const day = 86_400_000;
    await db.insert(jobs).values([
      { kind: 'import-csv', status: 'queued' },
      { kind: 'import-fhir', status: 'queued' },
      { kind: 'import-undo', status: 'running' },
      // Not imports, or finished: not pending.
      { kind: 'message-send', status: 'queued' },
      { kind: 'import-csv', status: 'succeeded' },
      {
        kind: 'import-csv',
        status: 'failed',
        attempts: 3,
        error: `Row 4: no date\n${'detail '.repeat(10)}`,
        finishedAt: new Date(now.getTime() - day),
      },
      { kind: 'policy-update', status: 'failed', attempts: 1, error: 'x'.repeat(400), finishedAt: new Date(now.getTime() - 2 * day) },
      // Failed 8 days ago: outside the window.
      { kind: 'records-prune', status: 'failed', attempts: 1, finishedAt: new Date(now.getTime() - 8 * day) },
    ]);
    await db.insert(authUsers).values({ id: 'old-1', name: 'old', email: 'old@x.test', createdAt: new Date(now.getTime() - 30 * day) });

    const home = await getAdminHome({ database: db, actor: admin, now });
    expect(home).toMatchObject({ importsWaiting: 2, importsRunning: 1, failedJobCount: 2 });
    expect(home.failedJobs.map((job) => [job.kind, job.attempts, job.error?.length])).toEqual([
      ['import-csv', 3, 'Row 4: no date'.length],
      ['policy-update', 1, 160],
    ]);
    expect(home.usersByRole).toEqual({ patient: 1, clinician: 2, 'drug-manufacturer': 0, 'government-official': 0, admin: 1 });
    // The four accounts made by this test are new (created now), the one from 30 days ago is not.
    expect(home.newUsers).toBe(4);
    expect(await refused(getAdminHome({ database: db, actor: clinician, now }))).toBe('forbidden');
  });
});
