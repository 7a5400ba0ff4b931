/**
 * Signed WhatsApp status webhooks under load (issue 12): the real server (`src/cli/serve.ts` over the production
 * build) on PostgreSQL, fed by autocannon on loopback at a fixed rate (default 500 requests/s for 60 s: a bounded
 * count, rate × seconds). Each request is one status (sent, delivered, read) of one of the outbound messages the
 * benchmark stored, signed with X-Hub-Signature-256 as Meta signs it; every tenth request is a retry of an
 * earlier delivery, which must answer 200 and change nothing. Afterwards, read straight from the database:
 * every distinct event stored exactly once and each message's status history as long as the statuses sent.
 *
 * Targets: p99 under 200 ms, zero errors and non-2xx answers. Needs BENCH_DATABASE_URL (a PostgreSQL server;
 * the benchmark makes a fresh database and drops it). Options: `--rate N` (requests/s), `--seconds S`.
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { messages, patients } from '@/db/schema';
import { needsBuild } from '@/cli/server/build-if-needed';
import { freePort, freshPostgresDatabase, killServer, startServer } from './support/server';

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const rate = argument('--rate', 500);
const seconds = argument('--seconds', 60);
const appSecret = 'webhook-bench-app-secret';
const statuses = ['sent', 'delivered', 'read'] as const;
/** Every this many requests, one is a retry of an earlier delivery (same body, same signature). */
const retryEvery = 10;

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) {
  console.log('BENCH_DATABASE_URL is not set: this benchmark measures PostgreSQL. Nothing measured.');
  process.exit(2);
}
if (needsBuild(process.cwd())) {
  console.log('No up-to-date production build (.next is missing or older than the sources): run `npm run build` first. Nothing measured.');
  process.exit(2);
}

/** One status webhook as Meta sends it (shape of ../shared/testdata/whatsapp-cloud-api/split/status_*.json). */
function statusBody(messageIndex: number, status: (typeof statuses)[number], at: number): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '5467539754836534',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000000', phone_number_id: '1122334455667' },
              statuses: [{ id: `wamid.bench.${messageIndex}`, status, timestamp: String(at), recipient_id: '15555550199' }],
            },
          },
        ],
      },
    ],
  });
}

const signatureOf = (body: string) => `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

const maximumRequests = rate * seconds;
const messageCount = Math.ceil(maximumRequests / statuses.length);
const database = await freshPostgresDatabase(serverUrl);
try {
  const connection = openPostgresConnection(database.url);
  await migrateDatabase(connection);
  const [patient] = await connection.database
    .insert(patients)
    .values({ pseudonym: 'P-webhook-bench', source: 'bench', sourceRecordId: 'webhook-bench-1', synthetic: true })
    .returning({ id: patients.id });
  const sentAt = new Date('2026-11-01T08:00:00Z');
  for (let start = 0; start < messageCount; start += 5_000) {
    await connection.database.insert(messages).values(
      Array.from({ length: Math.min(5_000, messageCount - start) }, (_, offset) => ({
        patientId: patient!.id,
        channel: 'whatsapp' as const,
        direction: 'outbound' as const,
        sentAt,
        status: 'accepted',
        providerMessageId: `wamid.bench.${start + offset}`,
        source: 'bench',
        sourceRecordId: `webhook-bench-${start + offset}`,
      })),
    );
  }
  await connection.close();

  const port = await freePort();
  const { server } = await startServer(
    { DATABASE_URL: database.url, WHATSAPP_APP_SECRET: appSecret, WHATSAPP_VERIFY_TOKEN: 'webhook-bench-verify' },
    port,
  );
  let sequence = 0;
  let distinct = 0;
  const sentBodies: string[] = [];
  const firstAt = Math.floor(sentAt.getTime() / 1000);
  try {
    // Warm the route (its first request compiles and connects) outside the measured run.
    await fetch(`http://127.0.0.1:${port}/api/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/api/webhooks/whatsapp`,
      method: 'POST',
      connections: 50,
      overallRate: rate,
      amount: maximumRequests,
      timeout: 10,
      requests: [
        {
          setupRequest: (request) => {
            sequence += 1;
            let body: string;
            if (sequence % retryEvery === 0 && sentBodies.length > 0) body = sentBodies[(sequence * 7919) % sentBodies.length]!;
            else {
              const index = distinct;
              distinct += 1;
              body = statusBody(Math.floor(index / statuses.length), statuses[index % statuses.length]!, firstAt + index);
              sentBodies.push(body);
            }
            return {
              ...request,
              body,
              headers: { ...request.headers, 'content-type': 'application/json', 'x-hub-signature-256': signatureOf(body) },
            };
          },
        },
      ],
    });

    // autocannon builds a connection's next request before it is due, so the last few built may never have
    // gone out: they are delivered once more now (a retry for those that did), and then all must be stored once.
    const tail = sentBodies.slice(-200);
    for (const body of tail) {
      const response = await fetch(`http://127.0.0.1:${port}/api/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatureOf(body) },
        body,
      });
      if (!response.ok) throw new Error(`a final delivery was refused (HTTP ${response.status})`);
    }

    const check = openPostgresConnection(database.url);
    const [stored] = (
      (await check.database.execute(sql`
        select (select count(*)::int from webhook_events) as events,
               (select count(distinct event_key)::int from webhook_events) as keys,
               (select coalesce(sum(jsonb_array_length(status_history)), 0)::int from messages) as history`)) as unknown as {
        rows: { events: number; keys: number; history: number }[];
      }
    ).rows;
    await check.close();

    const answered = result.requests.total;
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(
      `PostgreSQL, ${rate} requests/s target for ${seconds} s, 50 connections: ${answered} requests answered ` +
        `in ${result.duration.toFixed(1)} s (${result.requests.average.toFixed(0)}/s average, slowest second ${result.requests.min}/s), ${distinct} distinct status events and ${answered - Math.min(answered, distinct)} retries`,
    );
    console.log(
      `latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    console.log(`errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`);
    console.log(
      `stored: ${stored!.events} webhook events (${stored!.keys} distinct keys), ${stored!.history} status-history entries, for ${distinct} distinct events sent`,
    );
    const exactlyOnce = stored!.events === distinct && stored!.keys === distinct && stored!.history === distinct;
    const fastEnough = result.latency.p99 < 200;
    // The load generator asks for `rate`; a server that cannot keep up answers fewer a second (the run lasts longer).
    const kept = answered / result.duration >= rate * 0.95;
    console.log(
      `${kept ? 'MET' : 'NOT MET'}: ${rate} requests/s sustained (${(answered / result.duration).toFixed(0)}/s) · ${fastEnough ? 'MET' : 'NOT MET'}: p99 under 200 ms · ${errors === 0 ? 'MET' : 'NOT MET'}: zero errors · ` +
        `${exactlyOnce ? 'MET' : 'NOT MET'}: every event stored exactly once`,
    );
    if (!exactlyOnce || errors > 0) process.exitCode = 1;
  } finally {
    await killServer(server, 'SIGTERM');
  }
} finally {
  await database.drop();
}
