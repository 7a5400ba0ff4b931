/**
 * The messaging overview on the demo dataset (issue 16: each page under 500 ms). Creates a fresh PostgreSQL
 * database (BENCH_DATABASE_URL, else TEST_DATABASE_URL, names the server), loads the demo dataset (2,000
 * synthetic patients, ~214,000 messages) and the demo clinic, then times getMessagingOverview for an admin
 * (everyone), the demo clinician (200 patients) and a government official (everyone, suppressed), for the
 * default period, and for an admin with a channel and a persona filter: a warm-up, then the median of 5 runs.
 * Loading the demo data (the seed and the demo clinic's link) summarises every day of the year (docs/decisions/045,
 * 049), so the first case's warm-up ("first") is the first view a visitor gets after it.
 * `npm run bench -- messaging-overview`.
 */
import { performance } from 'node:perf_hooks';
import { freshPostgresDatabase } from './support/server';
import { openPostgresConnection } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import { migrateDatabase } from '@/db/migrate';
import { authUsers } from '@/db/schema';
import { linkDemoAccounts } from '@/features/demo-data/server/link-demo-accounts';
import { seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { getMessagingOverview, type OverviewFilters } from '@/features/messaging-overview';

const targetMs = 500;
const runs = 5;
const now = new Date('2026-11-24T12:00:00Z');

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  process.stdout.write('messaging-overview: set BENCH_DATABASE_URL (a PostgreSQL server) to run this benchmark.\n');
  process.exit(0);
}

const database = await freshPostgresDatabase(serverUrl);
const connection = openPostgresConnection(database.url);
let slow = false;
try {
  await migrateDatabase(connection);
  const db = connection.database;
  const loadStarted = performance.now();
  const seeded = await seedDemoDataset({ database: db });
  await db.insert(authUsers).values([
    { id: 'bench-clinician', name: 'Bench clinician', email: 'clinician@medaptive.test' },
    { id: 'bench-admin', name: 'Bench admin', email: 'admin@bench.test' },
    { id: 'bench-official', name: 'Bench official', email: 'official@bench.test' },
  ]);
  await linkDemoAccounts({ database: db });
  await connection.execute('analyze');
  const messages = seeded.seeded ? seeded.inserted.messages : 0;
  process.stdout.write(
    `demo dataset: ${messages.toLocaleString('en')} messages loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`,
  );

  const none: OverviewFilters = { channel: null, persona: null, productId: null };
  const cases: { label: string; actor: Viewer; filters: OverviewFilters; source?: 'messages' }[] = [
    { label: 'admin, all patients', actor: { id: 'bench-admin', role: 'admin' }, filters: none },
    // The same view computed from the messages, as before the summaries: a reference under the same machine load.
    { label: 'admin, all patients, from the messages', actor: { id: 'bench-admin', role: 'admin' }, filters: none, source: 'messages' },
    { label: 'clinician, demo clinic', actor: { id: 'bench-clinician', role: 'clinician' }, filters: none },
    { label: 'official, suppressed', actor: { id: 'bench-official', role: 'government-official' }, filters: none },
    {
      label: 'official, suppressed, from the messages',
      actor: { id: 'bench-official', role: 'government-official' },
      filters: none,
      source: 'messages',
    },
    {
      label: 'admin, whatsapp + persona',
      actor: { id: 'bench-admin', role: 'admin' },
      filters: { ...none, channel: 'whatsapp', persona: 'busy-professional' },
    },
  ];
  for (const entry of cases) {
    const times: number[] = [];
    let summary = '';
    let first = 0;
    for (let run = 0; run <= runs; run += 1) {
      const started = performance.now();
      const page = await getMessagingOverview({ database: db, actor: entry.actor, filters: entry.filters, now, source: entry.source });
      const elapsed = performance.now() - started;
      if (run > 0) times.push(elapsed);
      else first = elapsed;
      if (page.status === 'ok')
        summary = `${page.selection.messages?.toLocaleString('en') ?? 'hidden'} messages, ${page.selection.patients ?? 'hidden'} patients, ${page.period.start} to ${page.period.end}`;
    }
    times.sort((left, right) => left - right);
    const median = times[Math.floor(times.length / 2)]!;
    // The reference computation is expected to miss the target; it only gives the summaries' figure a comparison.
    if (median >= targetMs && entry.source === undefined) slow = true;
    process.stdout.write(
      `getMessagingOverview (${entry.label}): median ${median.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, first ${first.toFixed(0)} ms (${summary}); ${entry.source === undefined ? `target < ${targetMs} ms ${median < targetMs ? 'OK' : 'TOO SLOW'}` : 'reference'}\n`,
    );
  }
} finally {
  await connection.close();
  await database.drop();
}
if (slow) process.exitCode = 1;
