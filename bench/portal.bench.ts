/**
 * The manufacturer and government portal's views on the demo dataset (issue 15: each view under 500 ms): a
 * fresh PGlite database is seeded with the default demo dataset, then each view — a manufacturer's (one
 * company), a government official's and an admin's, unfiltered and filtered by product and region, and a
 * table's CSV — runs once to warm up and RUNS more times. Prints the median and the slowest run.
 * Not yet here: the 100,000-patient PostgreSQL run with pre-aggregated tables (docs/decisions/039).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPgliteConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { authUsers, companyMemberships } from '@/db/schema';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
import { seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { exportPortalTable } from '@/features/portal/server/export-portal-table';
import { getPortalView } from '@/features/portal/server/get-portal-view';
import type { SessionUser } from '@/lib/server/session';

const RUNS = 5;
const BUDGET_MS = 500;
const request = { requestId: 'bench', clientAddress: '127.0.0.1' };

const viewer = (role: SessionUser['role']): SessionUser => ({
  id: `bench-${role}`,
  email: `${role}@bench.test`,
  name: role,
  role,
  phoneNumber: null,
  twoFactorEnabled: false,
});

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

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-portal-bench-'));
const connection = openPgliteConnection(directory);
try {
  await migrateDatabase(connection);
  const database = connection.database;
  const seedStarted = performance.now();
  await seedDemoDataset({ database });
  process.stdout.write(
    `PGlite, default demo dataset seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s; ${os.cpus().length} CPUs, Node ${process.version}\n`,
  );
  const roles = ['drug-manufacturer', 'government-official', 'admin'] as const;
  await database.insert(authUsers).values(roles.map((role) => ({ id: `bench-${role}`, name: role, email: `${role}@bench.test` })));
  const company = demoCompanies[0]!;
  await database.insert(companyMemberships).values({ userId: 'bench-drug-manufacturer', companyId: company.id });
  const product = demoProducts.find((candidate) => candidate.companyId === company.id)!;
  const now = new Date();
  let withinBudget = true;
  const none = { productId: null, companyId: null, region: null };
  for (const role of roles) {
    const actor = viewer(role);
    for (const [name, filters] of [
      ['all products', none],
      [`product ${product.id}`, { ...none, productId: product.id }],
    ] as const) {
      withinBudget =
        (await time(`portal view, ${role}, ${name}`, () => getPortalView({ database, actor, filters, request, now }))) && withinBudget;
    }
  }
  withinBudget =
    (await time('portal CSV (by-region), government-official', () =>
      exportPortalTable({ database, actor: viewer('government-official'), table: 'by-region', filters: none, request, now }),
    )) && withinBudget;
  process.stdout.write(withinBudget ? `Every run under ${BUDGET_MS} ms.\n` : `Some run took ${BUDGET_MS} ms or more.\n`);
  process.exitCode = withinBudget ? 0 : 1;
} finally {
  await connection.close();
  fs.rmSync(directory, { recursive: true, force: true });
}
