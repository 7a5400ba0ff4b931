/**
 * The survey-evolution page at national scale (issue 17 item 5; docs/decisions/047). The page shows, per survey
 * version, the bits of persona information each question added on average over every stored response in the
 * viewer's scope — for a government official or an admin, every response there is.
 *
 * PGlite with the demo's 2,000 patients and, when BENCH_DATABASE_URL names a PostgreSQL server, PostgreSQL with
 * `--patients N` (default 100,000): six in ten with a barrier survey (current version)
 * and three in ten with a lifestyle survey, their answers drawn by the demo's simulator (60 barrier responses,
 * ten per persona, 15% guessing, the adaptive order and stop rules, without record answers: the page's cost does
 * not depend on which questions were asked; spread over the patients by a hash, as the portal bench does) and stored
 * with their information figures as the product stores them. Then `getSurveyEvolutionPage` for a government
 * official and an admin: a warm-up (which also measures the persona-accuracy curves once per process), then the
 * median and slowest of RUNS. Target: under 1 s at 100,000 patients. Loopback only.
 * `npm run bench -- survey-evolution [--patients N]`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { freshPostgresDatabase } from './support/server';
import { type Database, openPgliteConnection, openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import {
  adherenceBarriersSurvey,
  lifestyleSurvey,
  responseInformation,
  SIMULATED_ANSWER_NOISE,
  simulateResponse,
  type SurveyDefinition,
} from '@/engine/surveys';
import { getSurveyEvolutionPage } from '@/features/surveys/server/get-survey-evolution-page';
import { ensureBuiltInSurveys } from '@/features/surveys/server/survey-store';
import { benchViewer, numberFlag } from './support/bench-options';

const RUNS = 5;
const BUDGET_MS = 1000;
/** The demo dataset's size. */
const DEMO_PATIENTS = 2000;
const flag = numberFlag;

const viewer = benchViewer;

/** Responses the demo's simulator draws for a definition: `perPersona` per persona, each with its information. */
function drawResponses(definition: SurveyDefinition, perPersona: number) {
  return personas.flatMap((persona, personaIndex) =>
    Array.from({ length: perPersona }, (_, draw) => {
      const stream = createRandomStream(17, personaIndex * perPersona + draw, 'survey');
      const { answers, order } = simulateResponse({
        definition,
        persona,
        noise: SIMULATED_ANSWER_NOISE,
        uniform: () => nextUniform(stream),
      });
      return { answers, order, information: responseInformation(definition, { answers, askedOrder: order }) };
    }),
  );
}

async function populate(database: Database, execute: (text: string) => Promise<unknown>, patients: number): Promise<void> {
  await ensureBuiltInSurveys(database);
  await execute(`insert into patients (pseudonym, source, source_record_id, region, age_band, sex, timezone, conditions, synthetic)
    select 'SURVEY-' || g, 'bench', 'SURVEY-' || g, (array['north', 'south', 'east', 'west'])[1 + g % 4],
      (array['18-34', '35-44', '45-54', '55-64', '65-74', '75+'])[1 + g % 6], (array['female', 'male'])[1 + g % 2],
      'Europe/London', array['hypertension'], true
    from generate_series(1, ${patients}) g`);
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  for (const [definition, share, channel] of [
    [adherenceBarriersSurvey, 614, 'whatsapp'],
    [lifestyleSurvey, 307, 'web'],
  ] as const) {
    const rows = (await database.execute(
      sql`select id from survey_definitions where survey_key = ${definition.key} order by version desc limit 1`,
    )) as unknown as { rows: { id: string }[] };
    const definitionId = rows.rows[0]!.id;
    const patterns = drawResponses(definition, 10);
    const array = (values: string[], type: string) => `(array[${values.map((value) => `${literal(value)}::${type}`).join(', ')}])`;
    const answers = array(
      patterns.map((pattern) => JSON.stringify(pattern.answers)),
      'jsonb',
    );
    const orders = array(
      patterns.map((pattern) => `{${pattern.order.join(',')}}`),
      'text',
    );
    const information = array(
      patterns.map((pattern) => JSON.stringify(pattern.information)),
      'jsonb',
    );
    await execute(`insert into survey_responses (patient_id, definition_id, survey_key, channel, answers, asked_order, information_bits,
        started_at, updated_at, completed_at)
      select s.id, '${definitionId}', '${definition.key}', '${channel}', ${answers}[1 + s.pattern], ${orders}[1 + s.pattern]::text[],
        ${information}[1 + s.pattern], s.completed - interval '5 minutes', s.completed, s.completed
      from (select p.id, (hashtext(p.id::text || 'pattern') & 2147483647) % ${patterns.length} as pattern,
          timestamptz '2026-11-23 18:00+00' - make_interval(days => (hashtext(p.id::text || 'day') & 2147483647) % 90) as completed
        from patients p where p.source = 'bench' and (hashtext(p.id::text || '${definition.key}') & 1023) < ${share}) s`);
  }
  await execute('analyze');
}

async function timePage(database: Database, label: string): Promise<boolean> {
  let withinBudget = true;
  for (const role of ['government-official', 'admin'] as const) {
    const actor = viewer(role);
    const page = await getSurveyEvolutionPage({ database, actor });
    const answered = page.surveys
      .flatMap((survey) => survey.versions.at(0)?.questions ?? [])
      .reduce((total, question) => Math.max(total, question.answered.count ?? 0), 0);
    const times: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      const started = performance.now();
      await getSurveyEvolutionPage({ database, actor });
      times.push(performance.now() - started);
    }
    times.sort((left, right) => left - right);
    const slowest = times.at(-1)!;
    withinBudget = withinBudget && slowest < BUDGET_MS;
    process.stdout.write(
      `${label}, ${role}: median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms ` +
        `(${RUNS} runs; most answered question ${answered.toLocaleString('en')}); load average ${os.loadavg()[0]!.toFixed(1)}\n`,
    );
  }
  return withinBudget;
}

let withinBudget = true;
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-bench-survey-evolution-'));
const pgliteConnection = await openPgliteConnection(directory);
try {
  await migrateDatabase(pgliteConnection);
  await populate(pgliteConnection.database, (text) => pgliteConnection.execute(text), DEMO_PATIENTS);
  withinBudget = (await timePage(pgliteConnection.database, `PGlite, ${DEMO_PATIENTS.toLocaleString('en')} patients`)) && withinBudget;
} finally {
  await pgliteConnection.close();
  fs.rmSync(directory, { recursive: true, force: true });
}

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl === undefined || serverUrl === '') {
  process.stdout.write('PostgreSQL run skipped (set BENCH_DATABASE_URL to a PostgreSQL server).\n');
} else {
  const scale = await freshPostgresDatabase(serverUrl);
  const connection = openPostgresConnection(scale.url);
  try {
    await migrateDatabase(connection);
    const patients = flag('--patients', 100_000);
    await populate(connection.database, (text) => connection.execute(text), patients);
    withinBudget = (await timePage(connection.database, `PostgreSQL, ${patients.toLocaleString('en')} patients`)) && withinBudget;
  } finally {
    await connection.close();
    await scale.drop();
  }
}
process.stdout.write(withinBudget ? `Every run under ${BUDGET_MS} ms.\n` : `Some run took ${BUDGET_MS} ms or more.\n`);
process.exitCode = withinBudget ? 0 : 1;
