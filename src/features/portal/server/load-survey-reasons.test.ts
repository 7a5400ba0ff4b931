import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { auditLog, authUsers, companyMemberships, surveyDefinitions, surveyResponses } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil } from '@/engine/adherence';
import type { ReportingPeriod } from '@/engine/aggregation/reporting-period';
import { adherenceBarriersSurvey, lifestyleSurvey } from '@/engine/surveys';
import { testSessionUser } from '@/lib/server/session-testing';
import { noPortalFilters, type SurveyReasonCounts } from '../portal-tables';
import { exportPortalTable } from './export-portal-table';
import { getPortalView, type PortalView } from './get-portal-view';
import { loadSurveyReasons } from './load-survey-reasons';
import { addPortalTestPatient, seedTwoCompanyCatalogue } from './test-support/portal-test-catalogue';

const now = new Date('2026-02-28T12:00:00Z');
const today = dayNumberFromCivil(2026, 2, 28);
const request = { requestId: 'request-1', clientAddress: '127.0.0.1' };
const manufacturer = testSessionUser('manufacturer-1', 'drug-manufacturer');
const government = testSessionUser('government-1', 'government-official');
const period: ReportingPeriod = {
  start: today - 365,
  end: today + 1,
  asOf: today,
  latestData: today,
  choice: { kind: 'last-months', months: 12 },
  notice: null,
};
const everyMonth = Array.from({ length: 15 }, (_, index) => today - 420 + index * 30);
const dayAt = (day: number) => new Date(day * 86_400_000 + 12 * 3_600_000);

type Response = { answers: Record<string, string>; completedDay: number | null; survey?: 'lifestyle' };

/**
 * Company A's statin, north: 24 patients answer forgetting (13 often or sometimes — two of them said never earlier
 * in the period — and 11 never, one of whom said often earlier); 12 of them also named worries as the main reason they
 * stopped, in an earlier response; 5 others answered cost often. So forgetting 13 of 24, worries 12 of 12, cost 5 of
 * 17 (the 12 were asked through stop-reason), need and routine 0 of 12. Out of the count: 3 statin patients whose
 * only answers are before the period, unfinished or from another survey; 15 on company B's metformin in the south
 * (forgetting often), who count for an official only.
 */
async function seed(db: Database): Promise<void> {
  await seedTwoCompanyCatalogue(db);
  await db.insert(authUsers).values([
    { id: 'manufacturer-1', name: 'manufacturer-1', email: 'manufacturer-1@x.test' },
    { id: 'government-1', name: 'government-1', email: 'government-1@x.test' },
  ]);
  await db.insert(companyMemberships).values({ userId: 'manufacturer-1', companyId: 'company-a' });
  const definitions = await db
    .insert(surveyDefinitions)
    .values([
      { surveyKey: adherenceBarriersSurvey.key, version: 1, definition: adherenceBarriersSurvey },
      { surveyKey: lifestyleSurvey.key, version: 1, definition: lifestyleSurvey },
    ])
    .returning({ id: surveyDefinitions.id, surveyKey: surveyDefinitions.surveyKey });
  const definitionOf = (key: string) => definitions.find((row) => row.surveyKey === key)!.id;

  const cohort: { productId: string; region: string; responses: Response[] }[] = [];
  for (let index = 0; index < 24; index += 1) {
    const forgetting = index < 13 ? (index % 2 === 0 ? 'often' : 'sometimes') : 'never';
    const responses: Response[] = [{ answers: { forgetting }, completedDay: today - 20 }];
    if (index < 2) responses.push({ answers: { forgetting: 'never' }, completedDay: today - 200 });
    if (index === 13) responses.push({ answers: { forgetting: 'often' }, completedDay: today - 200 });
    if (index >= 12) responses.push({ answers: { 'stop-reason': 'worries', cost: 'never' }, completedDay: today - 100 });
    cohort.push({ productId: 'statin-a', region: 'north', responses });
  }
  // The 12 asked stop-reason above also answered cost never: cost asked 5 + 12 = 17, given by 5.
  for (let index = 0; index < 5; index += 1)
    cohort.push({ productId: 'sartan-a', region: 'north', responses: [{ answers: { cost: 'often' }, completedDay: today - 30 }] });
  cohort.push(
    { productId: 'statin-a', region: 'north', responses: [{ answers: { forgetting: 'often' }, completedDay: today - 400 }] },
    { productId: 'statin-a', region: 'north', responses: [{ answers: { forgetting: 'often' }, completedDay: null }] },
    {
      productId: 'statin-a',
      region: 'north',
      responses: [{ answers: { forgetting: 'often' }, completedDay: today - 10, survey: 'lifestyle' }],
    },
  );
  for (let index = 0; index < 15; index += 1)
    cohort.push({ productId: 'metformin-b', region: 'south', responses: [{ answers: { forgetting: 'often' }, completedDay: today - 5 }] });

  for (const person of cohort) {
    const patientId = await addPortalTestPatient(db, person.productId, person.region, everyMonth);
    await db.insert(surveyResponses).values(
      person.responses.map((response) => {
        const key = response.survey === 'lifestyle' ? lifestyleSurvey.key : adherenceBarriersSurvey.key;
        const day = response.completedDay ?? today - 3;
        return {
          patientId,
          definitionId: definitionOf(key),
          surveyKey: key,
          answers: response.answers,
          askedOrder: Object.keys(response.answers),
          startedAt: dayAt(day),
          updatedAt: dayAt(day),
          completedAt: response.completedDay === null ? null : dayAt(day),
        };
      }),
    );
  }
}

const sorted = (counts: SurveyReasonCounts) => ({
  respondents: counts.respondents,
  reasons: [...counts.reasons].sort((left, right) => left.reason.localeCompare(right.reason)),
});

function ok(view: PortalView) {
  if (view.status !== 'ok') throw new Error(`expected a view, got ${view.status}`);
  return view;
}

describe.each(testDatabaseBackends())('missed-dose reasons from surveys on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await backend.create();
    db = database.database;
    await seed(db);
  });

  afterAll(async () => {
    await database.dispose();
  });

  it('counts each scoped patient once per reason, by their latest answer in the period to its questions', async () => {
    const companyA = await loadSurveyReasons({ database: db, productIds: ['statin-a', 'sartan-a'], region: null, period });
    expect(sorted(companyA)).toEqual({
      respondents: 29,
      reasons: [
        { reason: 'concerns', asked: 12, gave: 12 },
        { reason: 'cost', asked: 17, gave: 5 },
        { reason: 'forgetting', asked: 24, gave: 13 },
        { reason: 'need', asked: 12, gave: 0 },
        { reason: 'routine', asked: 12, gave: 0 },
      ],
    });
    // Another company's product, a region, a region with nobody, and no products.
    const metformin = await loadSurveyReasons({ database: db, productIds: ['metformin-b'], region: null, period });
    expect(sorted(metformin)).toEqual({ respondents: 15, reasons: [{ reason: 'forgetting', asked: 15, gave: 15 }] });
    const south = await loadSurveyReasons({ database: db, productIds: ['statin-a', 'sartan-a', 'metformin-b'], region: 'south', period });
    expect(sorted(south)).toEqual(sorted(metformin));
    expect(await loadSurveyReasons({ database: db, productIds: ['statin-a'], region: 'not-recorded', period })).toEqual({
      respondents: 0,
      reasons: [],
    });
    expect(await loadSurveyReasons({ database: db, productIds: [], region: null, period })).toEqual({ respondents: 0, reasons: [] });
    // A period that ends before the latest answers: the earlier ones count instead (patients 0 and 1 never forgot then, patient 13 often did).
    const earlier = await loadSurveyReasons({
      database: db,
      productIds: ['statin-a'],
      region: null,
      period: { ...period, end: today - 50 },
    });
    expect(sorted(earlier)).toEqual({
      respondents: 14,
      reasons: [
        { reason: 'concerns', asked: 12, gave: 12 },
        { reason: 'cost', asked: 12, gave: 0 },
        { reason: 'forgetting', asked: 3, gave: 1 },
        { reason: 'need', asked: 12, gave: 0 },
        { reason: 'routine', asked: 12, gave: 0 },
      ],
    });
  });

  it('shows the table with counts of 1–10 hidden and shares only over at least 11 patients asked', async () => {
    const view = ok(await getPortalView({ database: db, actor: manufacturer, filters: noPortalFilters, request, now }));
    const table = view.figures.tables.find((candidate) => candidate.id === 'survey-reasons')!;
    expect(table.title).toBe('Reasons for missed doses, from surveys');
    const row = (key: string) => table.rows.find((candidate) => candidate.key === key)!.values;
    expect(row('forgetting')).toEqual([
      { kind: 'count', value: 13 },
      { kind: 'count', value: 24 },
      { kind: 'share', value: 13 / 24 },
    ]);
    expect(row('concerns')).toEqual([
      { kind: 'count', value: 12 },
      { kind: 'count', value: 12 },
      { kind: 'share', value: 1 },
    ]);
    expect(row('cost')).toEqual([
      { kind: 'hidden', label: '<11' },
      { kind: 'count', value: 17 },
      { kind: 'none', label: 'hidden' },
    ]);
    expect(row('need')).toEqual([
      { kind: 'count', value: 0 },
      { kind: 'count', value: 12 },
      { kind: 'share', value: 0 },
    ]);
    expect(row('understanding')).toEqual([
      { kind: 'count', value: 0 },
      { kind: 'count', value: 0 },
      { kind: 'none', label: '–' },
    ]);
    expect(row('all')).toEqual([
      { kind: 'text', value: '' },
      { kind: 'count', value: 29 },
      { kind: 'text', value: '' },
    ]);

    // An official in the south sees only company B's 15 patients.
    const south = ok(
      await getPortalView({ database: db, actor: government, filters: { ...noPortalFilters, region: 'south' }, request, now }),
    );
    const southRows = south.figures.tables.find((candidate) => candidate.id === 'survey-reasons')!.rows;
    expect(southRows.find((candidate) => candidate.key === 'forgetting')!.values.slice(0, 2)).toEqual([
      { kind: 'count', value: 15 },
      { kind: 'count', value: 15 },
    ]);
  });

  it('exports the table as shown and audits the download like the other tables', async () => {
    const { csv, filename } = await exportPortalTable({
      database: db,
      actor: manufacturer,
      table: 'survey-reasons',
      filters: noPortalFilters,
      request,
      now,
    });
    expect(filename).toMatch(/^portal-survey-reasons-/);
    const lines = csv.trim().split('\r\n');
    // Quoted: the title has a comma.
    expect(lines[0]).toBe('"# Reasons for missed doses, from surveys"');
    expect(lines[1]).toContain('adherence-barriers survey');
    expect(lines[2]).toBe('Reason,Patients giving it,Patients asked,Share of those asked');
    expect(lines).toContain('Forgetting,13,24,0.5417');
    expect(lines).toContain('Cost,<11,17,hidden');
    const audits = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, 'manufacturer-1'), eq(auditLog.action, 'portal.export-csv')));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toMatchObject({ view: 'manufacturer', table: 'survey-reasons', productId: null, region: null });
  });
});
