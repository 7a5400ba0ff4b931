/**
 * `npm start` / `npm run dev`: validate the environment, build when needed, migrate the database,
 * then serve the Next.js application. A small custom server, because the client's address must be
 * taken from the socket (Next.js route handlers cannot see it) to make per-client limits honest.
 * `npm start -- --prepare-only` prepares the database (migrations, and the demo accounts and dataset where
 * they apply) and exits: a release step before the servers start, or one database copied for several.
 */
// First: the global Next.js expects before anything imports it (see the module).
import './server/expose-async-local-storage';
import http from 'node:http';
import next from 'next';
import { closeDatabaseConnection, getDatabaseConnection } from '@/db/client';
import { withAdvisoryLock } from '@/db/advisory-lock';
import { migrateDatabase } from '@/db/migrate';
import { clientAddressHeader, isTrustedPeer, resolveClientAddress } from '@/lib/client-address';
import { requestIdHeader, resolveRequestId } from '@/lib/request-id';
import { approveDemoTemplates, ensureTemplateLibrary } from '@/features/message-templates';
import { linkDemoAccounts } from '@/features/demo-data/server/link-demo-accounts';
import { seedDemoAccounts } from '@/features/identity/server/seed-demo-accounts';
import { ensureMessagingTick } from '@/features/messaging-loop';
import { ensurePolicyUpdate } from '@/features/policy-learning';
import { ensurePortalRefresh, queuePortalRefresh } from '@/features/portal';
import { fillSurveyResponseInformation, warmPersonaAccuracy } from '@/features/surveys';
import { describeDemoDataset } from '@/features/demo-data/server/describe-demo-dataset';
import { describeChannels } from '@/features/message-sending';
import { demoDatasetLockId, seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';
import { EnvironmentError, getEnvironment, resolveDataDirectory, servedOverHttps } from '@/lib/env';
import { getAuth } from '@/lib/server/auth';
import { startJobWorker } from '@/lib/server/jobs';
import { createNonce, securityHeaders } from '@/lib/server/security-headers';
import { registerJobHandlers } from './server/register-job-handlers';
import { buildIfNeeded } from './server/build-if-needed';
import { createPrecompressedStatic } from './server/precompressed-static';
import { ensureRecordsPrune } from './server/prune-operational-records';
import { warmDefaultComparison } from '@/features/policy-comparison/server/warm-default-comparison';

const development = process.argv.includes('--dev');
const prepareOnly = process.argv.includes('--prepare-only');
const demoSeedLockId = 7_263_002;
// Next.js decides development or production from NODE_ENV; set it before anything reads it.
(process.env as Record<string, string>).NODE_ENV = development ? 'development' : 'production';

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  let environment;
  try {
    environment = getEnvironment();
  } catch (error) {
    if (error instanceof EnvironmentError) {
      process.stderr.write(`${error.message}\nFix these variables and start again (README "Configuration").\n`);
      process.exit(1);
    }
    throw error;
  }
  const projectDirectory = process.cwd();
  if (!development && !prepareOnly) buildIfNeeded(projectDirectory, log);

  const connection = getDatabaseConnection();
  await migrateDatabase(connection);
  // Version 1 of any engine template not stored yet (one idempotent insert; edited templates are kept).
  await ensureTemplateLibrary({ database: connection.database });
  log(
    connection.kind === 'pglite'
      ? `Database: embedded PGlite in ${resolveDataDirectory(environment)}`
      : 'Database: PostgreSQL (DATABASE_URL)',
  );
  log(describeChannels(environment));

  // Demo accounts: on the first start of an empty embedded database, or wherever SEED_DEMO=true asks.
  if (connection.kind === 'pglite' || environment.SEED_DEMO) {
    const auth = await getAuth();
    // Instances starting together on one PostgreSQL take turns; the second finds the accounts and skips.
    const created = await withAdvisoryLock(connection, demoSeedLockId, () =>
      seedDemoAccounts({ database: connection.database, auth, password: environment.DEMO_PASSWORD }),
    );
    if (created.length > 0) {
      log(`Demo accounts created (password: DEMO_PASSWORD, default Medaptive-demo-1):\n${created.map((email) => `  ${email}`).join('\n')}`);
    }
  }

  // Demo dataset (synthetic patients, their year of history, trial cohort A): same condition; loaded once.
  if (connection.kind === 'pglite' || environment.SEED_DEMO) {
    // Summarised once, by the linking below (which changes the demo clinic's patients), not also here.
    const dataset = await withAdvisoryLock(connection, demoDatasetLockId, () =>
      seedDemoDataset({ database: connection.database, prepareSummaries: false }),
    );
    if (dataset.seeded) log(describeDemoDataset(dataset));
    // The portal's pre-aggregates are built from it by the worker (decision 039).
    if (dataset.seeded) await queuePortalRefresh({ database: connection.database });
    // The demo patient and clinician accounts get a record and a clinic to look at.
    await withAdvisoryLock(connection, demoDatasetLockId, () => linkDemoAccounts({ database: connection.database }));
    // The demo's WhatsApp account has its utility templates approved (each recorded as a version of its own).
    await approveDemoTemplates({ database: connection.database });
  }
  if (prepareOnly) {
    // Jobs queued above (the portal's pre-aggregates) stay queued for the first server's worker.
    await closeDatabaseConnection();
    log('Database prepared.');
    return;
  }

  const application = next({ dev: development, dir: projectDirectory, hostname: environment.HOST, port: environment.PORT });
  await application.prepare();
  const handle = application.getRequestHandler();
  // The build's scripts and styles in brotli, compressed in the background once per build (decision 059).
  const precompressed = development ? null : createPrecompressedStatic({ projectDirectory });
  precompressed?.ready.then(
    ({ files, compressed }) => log(`Static files served in brotli: ${files} (${compressed} compressed now)`),
    (error: unknown) =>
      log(`Static files stay in gzip: compressing them failed (${error instanceof Error ? error.message : String(error)})`),
  );

  const https = servedOverHttps(environment);
  const server = http.createServer((request, response) => {
    const forwardedFor = request.headers['x-forwarded-for'];
    request.headers[clientAddressHeader] = resolveClientAddress({
      remoteAddress: request.socket.remoteAddress,
      forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
      trustedProxies: environment.TRUSTED_PROXIES,
    });
    // One id per request for the audit log (and the answer, to quote in a support request); a proxy's id is
    // kept only when the proxy is trusted.
    const requestId = resolveRequestId({
      incoming: request.headers[requestIdHeader],
      fromTrustedProxy: isTrustedPeer(request.socket.remoteAddress, environment.TRUSTED_PROXIES),
    });
    request.headers[requestIdHeader] = requestId;
    response.setHeader('X-Request-Id', requestId);
    // Security headers on every response (pages, API routes, static files, Next.js's own errors), set here
    // because the proxy does not see API routes and static files. Next.js takes the nonce for its scripts
    // from the request's Content-Security-Policy header, as it would from the proxy; a client's value is replaced.
    const headers = securityHeaders({ nonce: createNonce(), https, development });
    request.headers['content-security-policy'] = headers['Content-Security-Policy'];
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (precompressed?.serve(request, response)) return;
    void handle(request, response);
  });
  // Node closes an idle keep-alive connection after 5 s; a client that reuses it at that moment gets ECONNRESET
  // (seen in CI). Keep idle connections longer than common clients and proxies do (60 s), as load balancers advise.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // Background jobs (imports, large simulations) run in this process; several instances share the queue.
  await registerJobHandlers();
  // The daily loop's hourly tick is a jobs row that queues the next; this puts the chain back if it broke.
  await ensureMessagingTick({ database: connection.database, now: new Date() });
  // The learning policy's nightly update is chained the same way (one per UTC night).
  await ensurePolicyUpdate({ database: connection.database, now: new Date() });
  // And the nightly prune of operational records past their retention (decision 037).
  await ensureRecordsPrune({ database: connection.database, at: new Date() });
  // And the nightly risk scoring of active patients (decision 046).
  await (await import('@/features/risk/server/register-risk-jobs')).ensureRiskScoring({ database: connection.database, at: new Date() });
  // And the nightly rebuild of the portal's pre-aggregates (decision 039).
  await ensurePortalRefresh({ database: connection.database, at: new Date() });
  const worker = startJobWorker({ database: connection.database });

  const shutdown = (signal: string) => {
    log(`${signal}: shutting down`);
    server.close();
    void worker
      .stop()
      .then(() => closeDatabaseConnection())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  server.listen(environment.PORT, environment.HOST, () => {
    log(`${environment.PRODUCT_NAME} is ready on http://localhost:${environment.PORT}`);
    // The comparison page's default simulation, once, in a worker thread, rather than in a reader's request.
    warmDefaultComparison().then(
      (milliseconds) => milliseconds > 0 && log(`Default policy comparison simulated in ${(milliseconds / 1000).toFixed(1)} s`),
      (error: unknown) =>
        log(`The default policy comparison was not simulated ahead: ${error instanceof Error ? error.message : String(error)}`),
    );
    // The information figures of survey responses stored without them (before migration 0029, or by an older
    // instance during a deploy); survey-evolution works them out itself until then (decision 047 addendum).
    fillSurveyResponseInformation({ database: connection.database }).then(
      (filled) => filled > 0 && log(`Information figures stored for ${filled} survey responses`),
      (error: unknown) => log(`Survey information figures were not stored: ${error instanceof Error ? error.message : String(error)}`),
    );
    // Survey evolution's persona-accuracy curves, in slices between requests, rather than in its first reader's.
    warmPersonaAccuracy({ database: connection.database }).then(
      (milliseconds) => log(`Survey persona accuracy measured in ${(milliseconds / 1000).toFixed(1)} s`),
      (error: unknown) => log(`Survey persona accuracy was not measured ahead: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
}

main().catch((error: unknown) => {
  // The database's own words (a Drizzle "Failed query" wraps them as the cause) say why; no stack trace.
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
  process.exit(1);
});
