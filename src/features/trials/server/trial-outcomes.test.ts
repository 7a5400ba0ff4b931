import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as getAnalysisDataset } from '@/app/api/trials/[trialId]/analysis-dataset/route';
import type { Database } from '@/db/client';
import { auditLog, dispensings, doseEvents, messages, patients, regimens, trialEnrolments, trials } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { analyseTrialOutcomes } from '@/engine/statistics/trial';
import { serveRoutesFrom } from '@/lib/server/route-testing';
import type { SessionUser } from '@/lib/server/session';
import { trialOutcomeRows } from '../analysis-dataset';
import { parseTrialOutcomesCsv } from '../parse-trial-outcomes-csv';
import { buildTrialAnalysisDataset } from './build-trial-analysis-dataset';
import { getTrialResults } from './get-trial-results';

const enrolledOn = '2026-01-12';
const enrolledDay = dayNumberFromIso(enrolledOn);
/** Follow-up is days [12 Jan, 6 Apr): complete from 6 April. */
const afterFollowUp = new Date('2026-04-06T12:00:00Z');
/** Day 15: weeks 1 and 2 are over. */
const duringFollowUp = new Date('2026-01-27T12:00:00Z');
const viewer = (role: SessionUser['role']) => ({ id: `${role}-1`, role });

type Participant = {
  pseudonym: string;
  arm: 'control' | 'intervention';
  timezone: string | null;
  regimenStart: string;
  /** Doses confirmed taken on a follow-up day (offset from enrolment, 0–83), or before (negative offsets). */
  taken: (offset: number) => number;
};

/** Two doses a day at 13:00 and 22:00 UTC (the same local day in UTC and New York). */
const doseInstant = (offset: number, dose: number) =>
  new Date(`${isoFromDayNumber(enrolledDay + offset)}T${dose === 0 ? '13' : '22'}:00:00Z`);

const participants: Participant[] = [
  {
    // Week 1: 3 of 14 (2 on day 0, 1 on day 3); weeks 2–12 every dose. Baseline: one dose a day.
    pseudonym: '+A-001',
    arm: 'intervention',
    timezone: 'America/New_York',
    regimenStart: '2025-06-01',
    taken: (offset) => (offset < 0 ? 1 : offset === 0 ? 2 : offset === 3 ? 1 : offset < 7 ? 0 : 2),
  },
  {
    // Regimen from enrolment (no baseline); nothing in weeks 1–2 (a gap ending on day 7), then every dose.
    pseudonym: 'B-002',
    arm: 'control',
    timezone: null,
    regimenStart: enrolledOn,
    taken: (offset) => (offset < 14 ? 0 : 2),
  },
  { pseudonym: 'C-003', arm: 'intervention', timezone: 'UTC', regimenStart: '2025-06-01', taken: () => 2 },
  {
    // Half the doses throughout; baseline one dose every other day (0.25).
    pseudonym: 'D-004',
    arm: 'control',
    timezone: 'Europe/London',
    regimenStart: '2025-06-01',
    taken: (offset) => (offset < 0 ? (offset % 2 === 0 ? 1 : 0) : 1),
  },
];

async function insertTrial(database: Database, options: { id: string; enrolledOn: string; people: Participant[] }) {
  await database.insert(trials).values({
    id: options.id,
    name: `Trial ${options.id}`,
    startDate: options.enrolledOn,
    weeks: 12,
    targetEnrolment: options.people.length,
  });
  const offsetDay = dayNumberFromIso(options.enrolledOn) - enrolledDay;
  for (const person of options.people) {
    const [patient] = await database
      .insert(patients)
      .values({
        pseudonym: options.id === 't1' ? person.pseudonym : `${options.id}-${person.pseudonym}`,
        source: 'test',
        sourceRecordId: `${options.id}-${person.pseudonym}`,
        timezone: person.timezone,
        persona: person.arm === 'control' ? 'busy' : 'forgetful',
        ageBand: '65-74',
        sex: 'F',
        conditions: ['hypertension'],
      })
      .returning({ id: patients.id });
    const patientId = patient!.id;
    await database.insert(regimens).values({
      patientId,
      dosesPerDay: 2,
      startDate: isoFromDayNumber(dayNumberFromIso(person.regimenStart) + offsetDay),
      source: 'test',
      sourceRecordId: `${options.id}-${person.pseudonym}`,
    });
    const doses: (typeof doseEvents.$inferInsert)[] = [];
    for (let offset = -84; offset < 84; offset += 1) {
      for (let dose = 0; dose < 2; dose += 1) {
        const taken = dose < person.taken(offset);
        // Recorded misses and unknowns must count as not taken, like absent confirmations.
        if (!taken && dose === 1 && offset % 5 !== 0) continue;
        const at = new Date(doseInstant(offset + offsetDay, dose));
        doses.push({
          patientId,
          scheduledAt: at,
          confirmedAt: taken ? at : null,
          status: taken ? 'taken' : offset % 10 === 0 ? 'unknown' : 'missed',
          source: 'test',
          sourceRecordId: `${options.id}-${person.pseudonym}-${offset}-${dose}`,
        });
      }
    }
    // Outside both windows: 90 days before enrolment.
    doses.push({
      patientId,
      scheduledAt: doseInstant(offsetDay - 90, 0),
      confirmedAt: doseInstant(offsetDay - 90, 0),
      status: 'taken',
      source: 'test',
      sourceRecordId: `${options.id}-${person.pseudonym}-early`,
    });
    await database.insert(doseEvents).values(doses);
    await database.insert(trialEnrolments).values({
      trialId: options.id,
      patientId,
      arm: person.arm,
      stratum: person.arm === 'control' ? 'busy' : 'forgetful',
      enrolledOn: options.enrolledOn,
    });
  }
}

async function patientIdOf(database: Database, pseudonym: string) {
  const [row] = await database.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, pseudonym));
  return row!.id;
}

describe.each(testDatabaseBackends())('trial outcomes on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await insertTrial(database.database, { id: 't1', enrolledOn, people: participants });
    const first = await patientIdOf(database.database, '+A-001');
    // A New York evening dose on 11 January local time is 03:00 UTC on 12 January: baseline, not week 1.
    await database.database.insert(doseEvents).values({
      patientId: first,
      scheduledAt: new Date('2026-01-12T03:00:00Z'),
      confirmedAt: new Date('2026-01-12T03:00:00Z'),
      status: 'taken',
      source: 'test',
      sourceRecordId: 'late-evening',
    });
    await database.database.insert(dispensings).values({
      patientId: first,
      medicationCode: 'statin',
      dispensedOn: enrolledOn,
      daysSupply: 42,
      source: 'test',
      sourceRecordId: 'fill-1',
    });
    const sent = (day: number, direction: 'outbound' | 'inbound', id: string) => ({
      patientId: first,
      channel: 'sms' as const,
      direction,
      sentAt: new Date(`${isoFromDayNumber(enrolledDay + day)}T15:00:00Z`),
      status: direction === 'outbound' ? 'delivered' : 'received',
      providerMessageId: id,
      source: 'test',
      sourceRecordId: id,
    });
    await database.database
      .insert(messages)
      .values([
        sent(-3, 'outbound', 'm0'),
        sent(1, 'outbound', 'm1'),
        sent(1, 'inbound', 'm2'),
        sent(40, 'outbound', 'm3'),
        sent(90, 'outbound', 'm4'),
      ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('builds one row per randomised participant with exact dose-level outcomes', async () => {
    const started = performance.now();
    const dataset = await buildTrialAnalysisDataset({ database: database.database, trialId: 't1', now: afterFollowUp });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(dataset.trial.status).toBe('complete');
    const byPseudonym = new Map(dataset.rows.map((row) => [row.pseudonym, row]));
    expect([...byPseudonym.keys()].sort()).toEqual(['+A-001', 'B-002', 'C-003', 'D-004']);

    const a = byPseudonym.get('+A-001')!;
    expect(a.weekly[0]).toBe(3 / 14);
    expect(a.weekly.slice(1)).toEqual(Array.from({ length: 11 }, () => 1));
    expect(a.outcome).toBe((3 + 11 * 14) / 168);
    expect(a.adherent).toBe(1);
    // One dose a day for 84 days, plus the late New York evening dose of 11 January (local) on the last baseline day.
    expect(a.baseline).toBe(85 / 168);
    expect(a.daysToFirstGap).toBeNull();
    expect(a.refillPdc).toBe(42 / 84);
    expect(a.messages).toBe(2);
    expect(a.replies).toBe(1);

    const b = byPseudonym.get('B-002')!;
    expect(b.baseline).toBeNull();
    expect(b.weekly.slice(0, 3)).toEqual([0, 0, 1]);
    expect(b.outcome).toBe(140 / 168);
    expect(b.daysToFirstGap).toBe(7);
    expect(b.refillPdc).toBeNull();
    expect(b.messages).toBe(0);

    expect(byPseudonym.get('C-003')!.outcome).toBe(1);
    const d = byPseudonym.get('D-004')!;
    expect(d.outcome).toBe(0.5);
    expect(d.adherent).toBe(0);
    expect(d.baseline).toBe(42 / 168);
  });

  it('shows only accrual and pooled figures while the trial runs', async () => {
    const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('patient'), now: duringFollowUp });
    expect(results).toEqual({
      state: 'blinded',
      accrual: [
        { weekStarting: '2026-01-12', cumulative: 4 },
        { weekStarting: '2026-01-19', cumulative: 4 },
        { weekStarting: '2026-01-26', cumulative: 4 },
      ],
      pooled: {
        participants: 4,
        meanAdherence: (17 / 28 + 0 + 1 + 0.5) / 4,
        period: { from: '2026-01-12', to: '2026-01-25' },
      },
    });
    expect(JSON.stringify(results)).not.toMatch(/control|intervention/);
    await expect(getTrialResults({ database: database.database, trialId: 't1', viewer: null, now: duringFollowUp })).rejects.toThrow(
      'No user logged in',
    );
  });

  it('compares the arms once complete, with the same analysis as the dataset gives the command line', async () => {
    const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('clinician'), now: afterFollowUp });
    if (results.state !== 'unblinded') throw new Error('expected unblinded results');
    const dataset = await buildTrialAnalysisDataset({ database: database.database, trialId: 't1', now: afterFollowUp });
    expect(results.analysis).toEqual(analyseTrialOutcomes(trialOutcomeRows(dataset.rows).rows));
    expect(results.analysis.n).toEqual({ control: 2, intervention: 2 });
    expect(results.period).toEqual({ from: '2026-01-12', to: '2026-04-05' });
    expect(results.population).toContain('all 4 randomised, intention to treat');
    expect(results.population).toContain('1 without a baseline');
    const week1 = results.weekly.filter((week) => week.week === 1);
    expect(week1.map((week) => [week.arm, week.participants])).toEqual([
      ['control', 2],
      ['intervention', 2],
    ]);
    expect(week1[0]!.mean).toBeCloseTo(0.25, 12);
    expect(week1[1]!.mean).toBeCloseTo((3 / 14 + 1) / 2, 12);
    expect(results.baseline[0]).toEqual({ label: 'Participants randomised', values: { control: '2', intervention: '2' } });
    expect(results.secondary.map((endpoint) => endpoint.name)).toEqual([
      'Adherent (dose-level adherence ≥ 0.8)',
      'Refill-based PDC',
      'Time to the first 7-day gap',
      'Reply rate',
    ]);
    expect(results.secondary[0]!.values.control).toMatch(/^1 of 2, 50\.0%/);

    // A government official sees small strata suppressed; a clinician sees them.
    const official = await getTrialResults({
      database: database.database,
      trialId: 't1',
      viewer: viewer('government-official'),
      now: afterFollowUp,
    });
    if (official.state !== 'unblinded') throw new Error('expected unblinded results');
    expect(official.baseline.find((row) => row.label === 'Persona stratum: busy')!.values.control).toBe('<11');
    expect(results.baseline.find((row) => row.label === 'Persona stratum: busy')!.values.control).toBe('2 (100.0%)');
  });

  it('exports the CSV to clinicians, officials and admins once complete; 409 before, 403 to others, audited', async () => {
    const server = await serveRoutesFrom(database);
    try {
      // A second trial that is still in its first weeks today.
      const recent = isoFromDayNumber(Math.floor(Date.now() / 86_400_000) - 3);
      await insertTrial(database.database, { id: 'recent', enrolledOn: recent, people: participants.slice(2) });
      const download = async (trialId: string, cookie: string | null) =>
        getAnalysisDataset(
          new NextRequest(`http://localhost:3000/api/trials/${trialId}/analysis-dataset`, {
            headers: { host: 'localhost:3000', ...(cookie === null ? {} : { cookie }) },
          }),
          { params: Promise.resolve({ trialId }) },
        );

      expect((await download('t1', null)).status).toBe(401);
      for (const role of ['patient', 'drug-manufacturer'] as const)
        expect((await download('t1', await server.signIn(role))).status).toBe(403);
      const running = await download('recent', await server.signIn('admin'));
      expect(running.status).toBe(409);
      expect(((await running.json()) as { error: { message: string } }).error.message).toContain('concealed arms');

      for (const role of ['clinician', 'government-official'] as const)
        expect((await download('t1', await server.signIn(role))).status).toBe(200);
      const response = await download('t1', await server.signIn('admin'));
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const text = await response.text();
      const [header, ...lines] = text.trimEnd().split('\r\n');
      expect(header).toBe(
        `patient_id,arm,stratum,baseline,outcome,adherent,refill_pdc,days_to_first_gap,messages,replies,${Array.from({ length: 12 }, (_, index) => `week_${index + 1}`).join(',')},baseline_imputed`,
      );
      expect(lines).toHaveLength(4);
      // A pseudonym a spreadsheet would run as a formula is neutralised.
      expect(lines.some((line) => line.startsWith("'+A-001,intervention,forgetful,"))).toBe(true);

      // The command line's five columns of the file give the page's analysis.
      const names = header!.split(',');
      const cliColumns = ['patient_id', 'arm', 'baseline', 'outcome', 'adherent'];
      const cli = [
        cliColumns.join(','),
        ...lines.map((line) => cliColumns.map((column) => line.split(',')[names.indexOf(column)]).join(',')),
      ].join('\n');
      const parsed = parseTrialOutcomesCsv(cli);
      if (!('rows' in parsed)) throw new Error(JSON.stringify(parsed.problems));
      const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('admin'), now: new Date() });
      if (results.state !== 'unblinded') throw new Error('expected unblinded results');
      expect(analyseTrialOutcomes(parsed.rows)).toEqual(results.analysis);

      const audit = await database.database
        .select({ outcome: auditLog.outcome })
        .from(auditLog)
        .where(eq(auditLog.action, 'trial.analysis-dataset.export'));
      expect(audit.map((row) => row.outcome).sort()).toEqual(['denied', 'denied', 'failure', 'success', 'success', 'success']);
    } finally {
      server.restore();
    }
  });
});
