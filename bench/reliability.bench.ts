/**
 * Reliability of the real server (`src/cli/serve.ts` over the production build, on loopback only).
 *
 * 1. Crash during ingestion: a device client sends dose-event batches to POST /api/dose-events (4 requests in
 *    flight, 50 events each, every event its own idempotency key) while the server is killed with SIGKILL at a
 *    random moment, N times, and restarted. A batch without an answer is sent again after the restart, with
 *    the same keys, until it is answered, as a device would. Afterwards, read straight from the database:
 *    every event acknowledged with a 2xx must be stored, and each key stored exactly once. Embedded PGlite
 *    always; PostgreSQL too when BENCH_DATABASE_URL names a server database (it gets a fresh database).
 * 2. Large uploads while signed out: three concurrent 300 MB POSTs to /api/imports without a session (chunked,
 *    no Content-Length), while the server's resident memory and /api/health latency are sampled.
 *
 * Options: `--skip-uploads` (only the crash part), `--kills N` (default 20; 50 for the long run), `--seconds S` (time budget per database for the
 * kills, default 150: fewer kills are made when restarts are slow, and the report says how many).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { type DatabaseConnection, openPgliteConnection, openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { dataSources, doseEvents, patients, products } from '@/db/schema';
import { hashApiKey, newApiKey } from '@/features/dose-events/server/api-keys';
import { needsBuild } from '@/cli/server/build-if-needed';
import { freePort, freshPostgresDatabase, killServer, startServer } from './support/server';

const projectDirectory = process.cwd();
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const kills = argument('--kills', 20);
const killBudgetSeconds = argument('--seconds', 150);
const eventsPerBatch = 50;
const inFlight = 4;
const patientPseudonym = 'P-reliability';
const productId = 'reliability-bench-product';

if (needsBuild(projectDirectory)) {
  console.log('No up-to-date production build (.next is missing or older than the sources): run `npm run build` first. Nothing measured.');
  process.exit(2);
}

/** A fresh database with one patient, one product and a dose-event source; its API key. */
async function prepare(connection: DatabaseConnection): Promise<{ apiKey: string; sourceId: string }> {
  await migrateDatabase(connection);
  const apiKey = newApiKey();
  const sourceId = `dose-api-bench-${randomBytes(3).toString('hex')}`;
  await connection.database.insert(products).values({ id: productId, name: 'Reliability bench product', genericName: 'benchmarkol' });
  // synthetic, so the embedded database's first start skips loading the demo dataset (not what is measured)
  await connection.database
    .insert(patients)
    .values({ pseudonym: patientPseudonym, source: 'bench', sourceRecordId: 'reliability-1', synthetic: true });
  await connection.database
    .insert(dataSources)
    .values({ id: sourceId, kind: 'dose-event-api', name: 'reliability bench', apiKeyHash: hashApiKey(apiKey) });
  return { apiKey, sourceId };
}

type Batch = { keys: string[]; body: string };
type Outcome = 'acknowledged' | 'unanswered' | 'refused';

function post(port: number, apiKey: string, batch: Batch): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/dose-events',
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            const result = JSON.parse(text) as { accepted: number; duplicates: number; rejected: unknown[] };
            resolve(result.accepted + result.duplicates === batch.keys.length && result.rejected.length === 0 ? 'acknowledged' : 'refused');
          } else resolve(status >= 500 ? 'unanswered' : 'refused');
        });
        response.on('error', () => resolve('unanswered'));
      },
    );
    request.on('error', () => resolve('unanswered'));
    request.setTimeout(30_000, () => request.destroy());
    request.end(batch.body);
  });
}

function makeBatch(run: string, sequence: number): Batch {
  const keys = Array.from({ length: eventsPerBatch }, (_, index) => `${run}-${sequence}-${index}`);
  const scheduled = Date.UTC(2026, 0, 1) + sequence * 3_600_000;
  const events = keys.map((key, index) => ({
    idempotencyKey: key,
    patient: patientPseudonym,
    product: productId,
    scheduledAt: new Date(scheduled + index * 60_000).toISOString(),
    confirmedAt: new Date(scheduled + index * 60_000 + 120_000).toISOString(),
    status: 'taken',
  }));
  return { keys, body: JSON.stringify({ events }) };
}

async function crashDuringIngestion(name: string, environment: Record<string, string>, open: () => DatabaseConnection) {
  const preparation = open();
  const { apiKey, sourceId } = await prepare(preparation);
  await preparation.close();

  const run = randomBytes(4).toString('hex');
  const acknowledged = new Set<string>();
  const pending: Batch[] = []; // sent without an answer: sent again after the restart
  let sequence = 0;
  let refused = 0;
  let killsMade = 0;
  const restartSeconds: number[] = [];
  const startedAt = performance.now();
  const port = await freePort();
  let { server } = await startServer(environment, port);

  const pump = async (until: () => boolean) => {
    const worker = async () => {
      while (!until()) {
        const batch = pending.shift() ?? makeBatch(run, (sequence += 1));
        const outcome = await post(port, apiKey, batch);
        if (outcome === 'acknowledged') for (const key of batch.keys) acknowledged.add(key);
        else if (outcome === 'unanswered') {
          pending.push(batch);
          if (server.child.exitCode !== null || server.child.signalCode !== null) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        } else refused += 1;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  };

  while (killsMade < kills && (performance.now() - startedAt) / 1000 < killBudgetSeconds) {
    let killed = false;
    const pumping = pump(() => killed);
    // Mid-ingestion: once the restarted server has answered a batch (its first request loads the route),
    // at a random moment within the next 1.5 s.
    const answeredBefore = acknowledged.size;
    const waitUntil = Date.now() + 60_000;
    while (acknowledged.size === answeredBefore && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
    await killServer(server, 'SIGKILL');
    killed = true;
    killsMade += 1;
    await pumping;
    const restarted = await startServer(environment, port);
    server = restarted.server;
    restartSeconds.push(restarted.seconds);
  }
  // Drain: every batch not yet answered is sent until it is, then a clean stop.
  let drainRounds = 0;
  while (pending.length > 0 && drainRounds < 20) {
    drainRounds += 1;
    const batches = pending.splice(0);
    for (const batch of batches) {
      const outcome = await post(port, apiKey, batch);
      if (outcome === 'acknowledged') for (const key of batch.keys) acknowledged.add(key);
      else if (outcome === 'unanswered') pending.push(batch);
      else refused += 1;
    }
  }
  await killServer(server, 'SIGTERM');
  const seconds = (performance.now() - startedAt) / 1000;

  const check = open();
  const rows = await check.database
    .select({ key: doseEvents.sourceRecordId, copies: sql<number>`count(*)::int` })
    .from(doseEvents)
    .where(eq(doseEvents.source, `dose-event-api:${sourceId}`))
    .groupBy(doseEvents.sourceRecordId);
  await check.close();
  const stored = new Map(rows.map((row) => [row.key, row.copies]));
  const lost = [...acknowledged].filter((key) => !stored.has(key)).length;
  const duplicated = rows.filter((row) => row.copies > 1).length;
  const sentKeys = sequence * eventsPerBatch;
  restartSeconds.sort((a, b) => a - b);
  console.log(
    [
      `${name.padEnd(10)} ${killsMade} SIGKILLs in ${seconds.toFixed(0)} s (asked for ${kills}; budget ${killBudgetSeconds} s), restart to ready median ${(restartSeconds[Math.floor(restartSeconds.length / 2)] ?? 0).toFixed(1)} s, max ${(restartSeconds.at(-1) ?? 0).toFixed(1)} s`,
      `           events sent ${sentKeys.toLocaleString('en-GB')}, acknowledged ${acknowledged.size.toLocaleString('en-GB')}, stored ${stored.size.toLocaleString('en-GB')} keys; ` +
        `acknowledged but lost ${lost}, stored more than once ${duplicated}, batches refused ${refused}, unanswered after draining ${pending.length}`,
    ].join('\n'),
  );
  return { lost, duplicated };
}

function residentMegabytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** One chunked upload of `bytes` to /api/imports without a session: its status and when it ended. */
function upload(port: number, bytes: number): Promise<{ status: number | string; seconds: number; sentMegabytes: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const finish = (status: number | string) => {
      if (settled) return;
      settled = true;
      resolve({ status, seconds: (performance.now() - started) / 1000, sentMegabytes: sent / 1_048_576 });
    };
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/imports?format=csv&name=big.csv', method: 'POST', headers: { 'content-type': 'text/csv' } },
      (response) => {
        response.resume();
        response.on('end', () => finish(response.statusCode ?? 0));
        finish(response.statusCode ?? 0);
        request.destroy();
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'error'));
    request.setTimeout(90_000, () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    const chunk = Buffer.alloc(1_048_576, 'PATIENT_ID,DATE,PERDAY,CATEGORY,DURATION\n');
    const write = () => {
      while (sent < bytes && !settled) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', write);
          return;
        }
      }
      if (!settled) request.end();
    };
    write();
  });
}

async function largeUploadsSignedOut(environment: Record<string, string>, open: () => DatabaseConnection) {
  const preparation = open();
  await prepare(preparation);
  await preparation.close();
  const port = await freePort();
  const { server } = await startServer(environment, port);
  const pid = server.child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const baseline = residentMegabytes(pid);
  let peak = baseline;
  const health: number[] = [];
  let healthFailures = 0;
  let sampling = true;
  const sampleMemory = (async () => {
    while (sampling) {
      peak = Math.max(peak, residentMegabytes(pid));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const probeHealth = (async () => {
    while (sampling) {
      const started = performance.now();
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) health.push(performance.now() - started);
      else healthFailures += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const results = await Promise.all([0, 1, 2].map(() => upload(port, 300 * 1_048_576)));
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await Promise.all([sampleMemory, probeHealth]);
  await killServer(server, 'SIGTERM');
  health.sort((a, b) => a - b);
  const percentile = (share: number) => health[Math.min(health.length - 1, Math.floor(share * health.length))] ?? Number.NaN;
  console.log(
    [
      `3 × 300 MB POST /api/imports signed out: answers ${results.map((result) => `${result.status} after ${result.seconds.toFixed(1)} s, ${result.sentMegabytes.toFixed(0)} MB sent`).join('; ')} (all done in ${seconds.toFixed(1)} s)`,
      `           server RSS ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB; /api/health during it: median ${percentile(0.5).toFixed(0)} ms, p99 ${percentile(0.99).toFixed(0)} ms, max ${(health.at(-1) ?? Number.NaN).toFixed(0)} ms (${health.length} answers, ${healthFailures} failed)`,
    ].join('\n'),
  );
}

const failures: string[] = [];
const pgliteDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-reliability-'));
try {
  const environment = { DATA_DIR: pgliteDirectory };
  const outcome = await crashDuringIngestion('PGlite', environment, () => openPgliteConnection(pgliteDirectory));
  if (outcome.lost > 0 || outcome.duplicated > 0) failures.push('PGlite');
} finally {
  fs.rmSync(pgliteDirectory, { recursive: true, force: true });
}

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl) {
  const database = await freshPostgresDatabase(serverUrl);
  try {
    const outcome = await crashDuringIngestion('PostgreSQL', { DATABASE_URL: database.url }, () => openPostgresConnection(database.url));
    if (outcome.lost > 0 || outcome.duplicated > 0) failures.push('PostgreSQL');
  } finally {
    await database.drop();
  }
}

if (!process.argv.includes('--skip-uploads')) {
  const uploadDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-uploads-'));
  try {
    await largeUploadsSignedOut({ DATA_DIR: uploadDirectory }, () => openPgliteConnection(uploadDirectory));
  } finally {
    fs.rmSync(uploadDirectory, { recursive: true, force: true });
  }
}

if (failures.length > 0) {
  console.log(`Acknowledged events lost or duplicated on: ${failures.join(', ')}`);
  process.exit(1);
}
