/**
 * The manufacturer and government portal's views (issue 15; docs/decisions/039).
 * 1. Demo dataset, PGlite (each view under 500 ms): a fresh database seeded with the default demo dataset, the
 *    pre-aggregates refreshed (as the job does after the seed), then each view — a manufacturer's (one
 *    company), a government official's and an admin's, unfiltered and by product, and a table's CSV — runs
 *    once to warm up and RUNS more times. Prints the median and the slowest run.
 * 2. Scale, PostgreSQL (each view under 2 s), only when BENCH_DATABASE_URL names a server: `--patients N`
 *    (default 100,000; 0 skips) simulated patients on one or two of 12 products of 3 companies, refilling every
 *    28–35 days for up to 30 fills over two years, and a dose a day (random hour and status) while on therapy
 *    in the last `--dose-days D` days (default 365) — written in SQL (insert … select generate_series, as the
 *    forecast bench does); the refresh job's work is timed, then every view; then data on a new day are added and
 *    the first views (portal, CSV, forecast) are timed before the refresh job has run (the latest built period shown,
 *    decision 060), once per request, and after the job builds the new periods (decision 057).
 * `npm run bench -- portal [--patients N] [--dose-days D]`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { freshPostgresDatabase } from './support/server';
import { type Database, openPgliteConnection, openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { authUsers, companyMemberships, userProfiles } from '@/db/schema';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
import { personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { adherenceBarriersSurvey, SIMULATED_ANSWER_NOISE, simulateResponse } from '@/engine/surveys';
import { seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { exportPortalTable } from '@/features/portal/server/export-portal-table';
import { forecastProductDemand } from '@/features/portal/server/forecast-product-demand';
import { getPortalView } from '@/features/portal/server/get-portal-view';
import { refreshPortalAggregates } from '@/features/portal/server/portal-dose-slots';
import { refreshPortalPatientSummaries } from '@/features/portal/server/portal-patient-summaries';
import { refreshPortalReplyCounts } from '@/features/portal/server/portal-reply-counts';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { findReportingPeriod } from '@/db/queries/reporting-period';
import type { SessionUser } from '@/lib/server/session';
import { benchViewer, numberFlag } from './support/bench-options';

const RUNS = 5;
const DEMO_BUDGET_MS = 500;
const SCALE_BUDGET_MS = 2000;
const flag = numberFlag;
const scalePatients = flag('--patients', 100_000);
const doseDays = flag('--dose-days', 365);
/** `--demo 0` skips the PGlite demo-dataset part (to give the scale run the machine). */
const runDemo = flag('--demo', 1) !== 0;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const request = { requestId: 'bench', clientAddress: '127.0.0.1' };

const viewer = benchViewer;

async function time(label: string, budget: number, run: () => Promise<unknown>): Promise<boolean> {
  await run();
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  const median = times[Math.floor(times.length / 2)]!;
  const slowest = times[times.length - 1]!;
  process.stdout.write(`${label}: median ${median.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms (${RUNS} runs)\n`);
  return slowest < budget;
}

const none = { productId: null, companyId: null, region: null };

/** Every view the benchmark times, for viewers set up by the caller (the manufacturer belongs to `companyId`). */
async function timeViews(database: Database, productId: string, budget: number, now: Date): Promise<boolean> {
  let withinBudget = true;
  for (const role of ['drug-manufacturer', 'government-official', 'admin'] as const) {
    const actor = viewer(role);
    for (const [name, filters] of [
      ['all products', none],
      [`product ${productId}`, { ...none, productId }],
    ] as const) {
      withinBudget =
        (await time(`portal view, ${role}, ${name}`, budget, () => getPortalView({ database, actor, filters, request, now }))) &&
        withinBudget;
    }
  }
  withinBudget =
    (await time('portal view, drug-manufacturer of two companies, all products', budget, () =>
      getPortalView({ database, actor: makerOfTwo, filters: none, request, now }),
    )) && withinBudget;
  withinBudget =
    (await time('portal CSV (by-region), government-official', budget, () =>
      exportPortalTable({ database, actor: viewer('government-official'), table: 'by-region', filters: none, request, now }),
    )) && withinBudget;
  process.stdout.write(withinBudget ? `Every run under ${budget} ms.\n` : `Some run took ${budget} ms or more.\n`);
  return withinBudget;
}

/** A manufacturer who belongs to two companies (decision 064: their view reads the group of both). */
const makerOfTwo: SessionUser = { ...viewer('drug-manufacturer'), id: 'bench-maker-of-two', email: 'maker-of-two@bench.test' };

async function addViewers(database: Database, companyId: string, secondCompanyId: string): Promise<void> {
  const roles = ['drug-manufacturer', 'government-official', 'admin'] as const;
  await database.insert(authUsers).values(roles.map((role) => ({ id: `bench-${role}`, name: role, email: `${role}@bench.test` })));
  await database.insert(companyMemberships).values({ userId: 'bench-drug-manufacturer', companyId });
  await database.insert(authUsers).values({ id: makerOfTwo.id, name: makerOfTwo.name, email: makerOfTwo.email });
  await database.insert(userProfiles).values({ uid: makerOfTwo.id, role: 'drug-manufacturer', updatedUnix: 1 });
  await database.insert(companyMemberships).values([
    { userId: makerOfTwo.id, companyId },
    { userId: makerOfTwo.id, companyId: secondCompanyId },
  ]);
}

/**
 * Builds the per-patient pre-aggregate (decision 050) for the default period of each viewer's scope, as the
 * refresh job does for the periods views registered (a view of a period not built yet is computed per request
 * and registers it). Call after addViewers.
 */
async function refreshPatientSummaries(database: Database, now: Date): Promise<void> {
  const periods = [];
  for (const role of ['drug-manufacturer', 'government-official'] as const) {
    const scope = await findCohortScope({ database, actor: { id: `bench-${role}`, role } });
    periods.push(await findReportingPeriod({ database, scope, now }));
  }
  const started = performance.now();
  const refreshed = await refreshPortalPatientSummaries({ database, now, periods });
  process.stdout.write(
    `Per-patient pre-aggregate built in ${seconds(started)} (${refreshed.built} periods, ${refreshed.rows.toLocaleString('en')} rows); load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}\n`,
  );
}

let withinBudget = true;
if (runDemo) withinBudget = await runDemoDataset();

async function runDemoDataset(): Promise<boolean> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-portal-bench-'));
  const connection = openPgliteConnection(directory);
  try {
    await migrateDatabase(connection);
    const database = connection.database;
    const seedStarted = performance.now();
    await seedDemoDataset({ database });
    process.stdout.write(
      `PGlite, default demo dataset seeded in ${seconds(seedStarted)}; ${os.cpus().length} CPUs, Node ${process.version}, load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}\n`,
    );
    const refreshStarted = performance.now();
    const refreshed = await refreshPortalAggregates({ database, now: new Date() });
    const replyCounts = await refreshPortalReplyCounts({ database });
    process.stdout.write(
      `Pre-aggregates refreshed in ${seconds(refreshStarted)} (${refreshed.rows.toLocaleString('en')} dose-slot rows; reply counts of ${replyCounts.patients.toLocaleString('en')} patients)\n`,
    );
    const company = demoCompanies[0]!;
    await addViewers(database, company.id, demoCompanies[1]!.id);
    const now = new Date();
    await refreshPatientSummaries(database, now);
    const product = demoProducts.find((candidate) => candidate.companyId === company.id)!;
    return await timeViews(database, product.id, DEMO_BUDGET_MS, now);
  } finally {
    await connection.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl === undefined || serverUrl === '' || scalePatients <= 0) {
  process.stdout.write('Scale run skipped (set BENCH_DATABASE_URL to a PostgreSQL server; --patients N > 0).\n');
} else {
  const scaleDatabase = await freshPostgresDatabase(serverUrl);
  const scaleConnection = openPostgresConnection(scaleDatabase.url);
  try {
    await migrateDatabase(scaleConnection);
    withinBudget = (await runScale(scaleConnection.database, (text) => scaleConnection.execute(text))) && withinBudget;
  } finally {
    await scaleConnection.close();
    await scaleDatabase.drop();
  }
}
process.exitCode = withinBudget ? 0 : 1;

async function runScale(db: Database, execute: (text: string) => Promise<unknown>): Promise<boolean> {
  // The simulated history ends the day before `now`; the views' default period is its last 12 months.
  const now = new Date('2026-11-24T12:00:00Z');
  const started = performance.now();
  await db.execute(sql`insert into drug_companies (id, name) select 'scale-co-' || c, 'Scale company ' || c from generate_series(1, 3) c`);
  await db.execute(sql`insert into products (id, company_id, name, generic_name, atc_code)
    select 'scale-p' || k, 'scale-co-' || (1 + k % 3), 'Scale product ' || k, 'generic ' || k,
      (array['C10AA05', 'C09CA01', 'A10BA02', 'C07AB07'])[1 + k % 4]
    from generate_series(1, 12) k`);
  await db.execute(sql`insert into patients (pseudonym, source, source_record_id, region, age_band, sex, timezone, conditions, synthetic)
    select 'SCALE-' || g, 'bench', 'SCALE-' || g,
      case when g % 50 = 0 then null else (array['north', 'south', 'east', 'west', 'midlands', 'wales', 'scotland', 'london'])[1 + g % 8] end,
      (array['18-34', '35-44', '45-54', '55-64', '65-74', '75+'])[1 + g % 6], (array['female', 'male'])[1 + g % 2],
      (array['Europe/London', 'Europe/London', 'America/New_York', 'Asia/Kolkata'])[1 + g % 4],
      array[(array['hypertension', 'type-2-diabetes', 'hyperlipidaemia'])[1 + g % 3]], true
    from generate_series(1, ${scalePatients}) g`);
  // Therapies: every patient one product, three in ten a second; each starts on a random day of two years,
  // refills every 28–35 days and stops after 1–30 fills. (The three-in-ten test hashes the patient: a random() there
  // may be evaluated once per query when the planner pushes it onto the series, giving everyone two therapies or one.)
  await execute(`create unlogged table scale_therapies as
    select p.id as patient_id, 'scale-p' || (1 + (random() * 11)::int) as product_id,
      date '2024-11-24' + (random() * 700)::int as start, 28 + (random() * 7)::int as step, 1 + (random() * 29)::int as fills
    from patients p cross join generate_series(1, 2) n
    where p.source = 'bench' and (n = 1 or (hashtext(p.id::text) & 1023) < 307)`);
  await execute(`insert into dispensings (patient_id, product_id, dispensed_on, days_supply, quantity, source, source_record_id)
    select t.patient_id, t.product_id, t.start + k * t.step, 30, 30, 'bench', t.patient_id || '-' || t.product_id || '-' || k
    from scale_therapies t, generate_series(0, 29) k
    where k < t.fills and t.start + k * t.step < date '2026-11-24'
    on conflict do nothing`);
  const fillsWritten = seconds(started);
  const dosesStarted = performance.now();
  // A dose a day while supplied (first fill to the last fill's 30 days), in the last --dose-days days.
  await execute(`insert into dose_events (patient_id, product_id, scheduled_at, status, source, source_record_id)
    select t.patient_id, t.product_id, d + make_interval(mins => (random() * 1439)::int),
      (array['taken', 'taken', 'taken', 'taken', 'missed', 'skipped', 'unknown'])[1 + (random() * 6)::int], 'bench',
      t.patient_id || '-' || t.product_id || '-' || d::date
    from scale_therapies t,
      generate_series(greatest(t.start, date '2026-11-24' - ${doseDays}), least(t.start + (t.fills - 1) * t.step + 29, date '2026-11-23'), interval '1 day') d
    on conflict do nothing`);
  await execute('drop table scale_therapies');
  const surveysStarted = performance.now();
  await writeScaleSurveyResponses(db, execute);
  const surveysWritten = seconds(surveysStarted);
  await execute('analyze');
  const counts = (await db.execute(
    sql`select (select count(*) from patients)::int as patients, (select count(*) from dispensings)::int as fills, (select count(*) from dose_events)::int as doses, (select count(*) from survey_responses)::int as surveys`,
  )) as unknown as { rows: { patients: number; fills: number; doses: number; surveys: number }[] };
  const count = counts.rows[0]!;
  process.stdout.write(
    `\nPostgreSQL scale: ${count.patients.toLocaleString('en')} patients, ${count.fills.toLocaleString('en')} dispensings (${fillsWritten}), ` +
      `${count.doses.toLocaleString('en')} dose events (${seconds(dosesStarted)}), ${count.surveys.toLocaleString('en')} completed barrier surveys (${surveysWritten}); load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}\n`,
  );
  const refreshStarted = performance.now();
  const refreshed = await refreshPortalAggregates({ database: db, now });
  await execute('analyze portal_dose_slots_daily');
  process.stdout.write(`Pre-aggregates refreshed in ${seconds(refreshStarted)} (${refreshed.rows.toLocaleString('en')} dose-slot rows)\n`);
  await addViewers(db, 'scale-co-1', 'scale-co-2');
  await refreshPatientSummaries(db, now);
  await execute('analyze portal_patient_summaries');
  // scale-p3 is a product of scale-co-1, the manufacturer's company, so every viewer's "one product" view is one
  // product (scale-p1, used before, is scale-co-2's: the manufacturer's view dropped the filter).
  const withinBudget = await timeViews(db, 'scale-p3', SCALE_BUDGET_MS, now);
  await timeFirstViewAfterNewData(db, execute, now);
  return withinBudget;
}

/**
 * Decisions 057 and 060: data on a new day move the as-of day and so every period. Until the refresh job (queued by
 * the import, and by the first such view) has built the new periods, a view of a large scope shows the newest built
 * period of the same choice, labelled as such (decision 060) — timed here as the first views, with the forecast's
 * likewise; then, once, the same view computed per request (what it cost before decision 060). The job builds the
 * periods ahead — here the default period of each scope, as refreshPatientSummaries does; the job itself builds every
 * period of the picker — and the first views after it read the new period's rows. Each timed once (a first view).
 */
async function timeFirstViewAfterNewData(db: Database, execute: (text: string) => Promise<unknown>, yesterday: Date): Promise<void> {
  const now = new Date(yesterday.getTime() + 86_400_000);
  await execute(`insert into dispensings (patient_id, product_id, dispensed_on, days_supply, quantity, source, source_record_id)
    select patient_id, product_id, date '2026-11-24', 30, 30, 'bench', 'new-day-' || patient_id || '-' || product_id
    from (select distinct on (patient_id) patient_id, product_id from dispensings where source = 'bench' order by patient_id limit 200) s`);
  await execute(`insert into dose_events (patient_id, product_id, scheduled_at, status, source, source_record_id)
    select patient_id, product_id, timestamptz '2026-11-24 08:00+00', 'taken', 'bench', 'new-day-dose-' || patient_id
    from (select distinct on (patient_id) patient_id, product_id from dispensings where source = 'bench' order by patient_id limit 200) s`);
  process.stdout.write('\nNew data on 2026-11-24 (200 dispensings, 200 doses): every period moves.\n');
  const once = async (label: string, run: () => Promise<string>) => {
    const started = performance.now();
    const shown = await run();
    process.stdout.write(
      `${label}: ${(performance.now() - started).toFixed(0)} ms (${shown}); load average ${os.loadavg()[0]!.toFixed(1)}\n`,
    );
  };
  const firstViews = async (when: string) => {
    for (const role of ['government-official', 'drug-manufacturer', 'admin'] as const)
      for (const [name, filters] of [
        ['all products', none],
        ['product scale-p3', { ...none, productId: 'scale-p3' }],
      ] as const)
        await once(`first view after new data, ${when}, ${role}, ${name}`, async () => {
          const view = await getPortalView({ database: db, actor: viewer(role), filters, request, now });
          if (view.status !== 'ok') return 'no company';
          return `${view.period.start} to ${view.period.end}${view.pending === null ? '' : `, newer data from ${view.pending.newDataFrom} pending, refresh ${view.pending.refresh}`}`;
        });
    await once(`first CSV (by-region) after new data, ${when}, government-official`, async () => {
      const { filename } = await exportPortalTable({
        database: db,
        actor: viewer('government-official'),
        table: 'by-region',
        filters: none,
        request,
        now,
      });
      return filename;
    });
    for (const role of ['government-official', 'drug-manufacturer'] as const)
      await once(`first forecast after new data, ${when}, ${role}, all products`, async () => {
        const forecast = await forecastProductDemand({ database: db, actor: viewer(role), productIds: [], request, now });
        return `as of ${forecast.asOf}${forecast.pending === null ? '' : `, newer fills from ${forecast.pending.newDataFrom} pending`}`;
      });
  };
  await firstViews('before the refresh job (latest built period)');
  // What the first view cost before decision 060 (and still costs for a scope under the threshold): per request.
  await once('first view after new data, computed per request, government-official, all products', async () => {
    const view = await getPortalView({
      database: db,
      actor: viewer('government-official'),
      filters: none,
      request,
      now,
      builtPeriodMinPatients: Infinity,
    });
    return view.status === 'ok' ? `${view.period.start} to ${view.period.end}` : 'no company';
  });
  await once('first forecast after new data, computed per request, government-official, all products', async () => {
    const forecast = await forecastProductDemand({
      database: db,
      actor: viewer('government-official'),
      productIds: [],
      request,
      now,
      builtBaseMinPatients: Infinity,
    });
    return `as of ${forecast.asOf}`;
  });
  await refreshPatientSummaries(db, now);
  await firstViews('after the refresh job');
}

/**
 * The portal's survey reasons read completed adherence-barriers responses in the period: six in ten patients answered
 * one in the last 90 days, as in the demo dataset. Their answers are 60 responses the demo's simulator draws (ten per
 * persona, 15% guessing, the adaptive order and stop rules), spread over the patients by a hash, so the statement has
 * realistic answers at the demo's share without simulating 100,000 responses in JavaScript.
 */
async function writeScaleSurveyResponses(db: Database, execute: (text: string) => Promise<unknown>): Promise<void> {
  const [definition] = (
    (await db.execute(
      sql`insert into survey_definitions (survey_key, version, definition, change_note)
        values (${adherenceBarriersSurvey.key}, 1, ${JSON.stringify(adherenceBarriersSurvey)}::jsonb, 'portal bench')
        returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  const patterns = personas.flatMap((persona, personaIndex) =>
    Array.from({ length: 10 }, (_, draw) => {
      const stream = createRandomStream(17, personaIndex * 10 + draw, 'survey');
      const { answers, order } = simulateResponse({
        definition: adherenceBarriersSurvey,
        persona,
        noise: SIMULATED_ANSWER_NOISE,
        uniform: () => nextUniform(stream),
      });
      return { answers, order };
    }),
  );
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const answers = patterns.map((pattern) => `${literal(JSON.stringify(pattern.answers))}::jsonb`).join(', ');
  const orders = patterns.map((pattern) => `${literal(`{${pattern.order.join(',')}}`)}::text`).join(', ');
  await execute(`insert into survey_responses (patient_id, definition_id, survey_key, answers, asked_order, started_at, updated_at, completed_at)
    select s.id, '${definition!.id}', '${adherenceBarriersSurvey.key}', (array[${answers}])[1 + s.pattern], (array[${orders}])[1 + s.pattern]::text[],
      s.completed - interval '5 minutes', s.completed, s.completed
    from (select p.id, (hashtext(p.id::text || 'pattern') & 2147483647) % ${patterns.length} as pattern,
        timestamptz '2026-11-23 18:00+00' - make_interval(days => (hashtext(p.id::text || 'day') & 2147483647) % 90) as completed
      from patients p where p.source = 'bench' and (hashtext(p.id::text || 'survey') & 1023) < 614) s`);
}
