/**
 * Imports a 100,000-row pharmacy CSV (the AdhereR example file, replicated) through the same use case the
 * server's import job runs, and measures how responsive the process stays meanwhile: the event-loop delay
 * (what every other request of a single-process server waits for) and the latency of a `select 1` sent every
 * 50 ms on the same database (what a page needing the database waits for). Embedded PGlite always; PostgreSQL
 * too when BENCH_DATABASE_URL names a server database (it gets a fresh database of its own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { freshPostgresDatabase } from './support/server';
import { type DatabaseConnection, openPgliteConnection, openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { importDispensingCsv } from '@/features/data-import/server/import-dispensing-csv';

const copies = 93; // 93 × 1,080 rows = 100,440
const source = fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/adherer/med_events.csv'), 'utf8').trim().split('\n');
const header = source[0] ?? '';
const rows = source.slice(1);
const lines = [header];
for (let copy = 0; copy < copies; copy += 1) {
  for (const row of rows) {
    const [patient, ...rest] = row.split(',');
    lines.push([String(Number(patient) + 100 * copy), ...rest].join(','));
  }
}
const text = `${lines.join('\n')}\n`;

async function measure(name: string, connection: DatabaseConnection) {
  await migrateDatabase(connection);
  const eventLoop = monitorEventLoopDelay({ resolution: 10 });
  const probes: number[] = [];
  let probing = true;
  const probe = async () => {
    while (probing) {
      const started = performance.now();
      await connection.execute('select 1');
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  eventLoop.enable();
  const started = performance.now();
  const probing_ = probe();
  // AdhereR's example dates run 2030–2044, refused as future today: imported as of 2045.
  const report = await importDispensingCsv({
    database: connection.database,
    actor: 'operator',
    text,
    mapping: { dateFormat: 'mdy' },
    now: new Date('2045-01-01T00:00:00Z'),
  });
  const seconds = (performance.now() - started) / 1000;
  probing = false;
  await probing_;
  eventLoop.disable();
  const created = Object.values(report.created).reduce((sum, count) => sum + count, 0);
  probes.sort((a, b) => a - b);
  const percentile = (share: number) => probes[Math.min(probes.length - 1, Math.floor(share * probes.length))] ?? 0;
  console.log(
    [
      `${name.padEnd(10)} ${String(lines.length - 1).padStart(7)} rows in ${seconds.toFixed(1)} s (${Math.round((lines.length - 1) / seconds).toLocaleString('en-GB')} rows/s), ${created.toLocaleString('en-GB')} records created`,
      `           event-loop delay: p99 ${(eventLoop.percentile(99) / 1e6).toFixed(0)} ms, max ${(eventLoop.max / 1e6).toFixed(0)} ms`,
      `           'select 1' during the import: median ${percentile(0.5).toFixed(0)} ms, p99 ${percentile(0.99).toFixed(0)} ms, max ${(probes.at(-1) ?? 0).toFixed(0)} ms (${probes.length} probes)`,
    ].join('\n'),
  );
  await connection.close();
}

await measure('PGlite', openPgliteConnection(undefined));

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl) {
  const database = await freshPostgresDatabase(serverUrl);
  try {
    await measure('PostgreSQL', openPostgresConnection(database.url));
  } finally {
    await database.drop();
  }
}
