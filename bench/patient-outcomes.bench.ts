/**
 * The national-healthcare-impact and patient-outcomes pages' use cases on the demo dataset (issue 15: each
 * page under 500 ms): a fresh PGlite database is seeded with the default demo dataset, then each use case
 * runs once to warm up and RUNS more times, for an admin (every figure) and a government official (through
 * whole-page suppression). Prints the median and the slowest run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPgliteConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { getMeasuredImprovement } from '@/features/healthcare-impact/server/get-measured-improvement';
import { getPatientOutcomes } from '@/features/healthcare-impact/server/get-patient-outcomes';
import { benchViewer } from './support/bench-options';

const RUNS = 5;
const BUDGET_MS = 500;

const viewer = benchViewer;

async function time(label: string, run: () => Promise<unknown>): Promise<boolean> {
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
  return slowest < BUDGET_MS;
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-outcomes-bench-'));
const connection = openPgliteConnection(directory);
try {
  await migrateDatabase(connection);
  const database = connection.database;
  const seedStarted = performance.now();
  await seedDemoDataset({ database });
  process.stdout.write(
    `PGlite, default demo dataset seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s; ${os.cpus().length} CPUs, Node ${process.version}\n`,
  );
  const now = new Date();
  let withinBudget = true;
  for (const role of ['admin', 'government-official'] as const) {
    const actor = viewer(role);
    withinBudget =
      (await time(`patient-outcomes, ${role}`, () => getPatientOutcomes({ database, actor, country: 'united-kingdom', now }))) &&
      withinBudget;
    withinBudget =
      (await time(`national-healthcare-impact (measured effect), ${role}`, () => getMeasuredImprovement({ database, actor, now }))) &&
      withinBudget;
  }
  process.stdout.write(withinBudget ? `Every run under ${BUDGET_MS} ms.\n` : `Some run took ${BUDGET_MS} ms or more.\n`);
  process.exitCode = withinBudget ? 0 : 1;
} finally {
  await connection.close();
  fs.rmSync(directory, { recursive: true, force: true });
}
