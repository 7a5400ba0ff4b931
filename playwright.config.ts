import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumArguments, chromiumPath } from './tests/e2e/support/chromium';

const port = Number(process.env.E2E_PORT ?? 3210);
const postgresPort = port + 1;
/** A second instance on the same PostgreSQL database: live profile changes must cross instances. */
const secondPostgresPort = port + 2;
// When a PostgreSQL database is provided (`.ci/run` does), a second server runs the smoke specs against it.
const postgresUrl = process.env.E2E_DATABASE_URL;
/**
 * The live messaging specs get a server and embedded database of their own: their test patients confirm doses
 * today, which moves the cohort's last day of data (and its default period) that other specs compare across pages.
 */
const messagingPort = port + 3;
const messagingSpecs = /(dev-phone|live-messaging|personalised-enrolment|message-data-collection|patient-home|survey-messages)\.spec\.ts$/;
/** The local OpenID provider (tests/e2e/support/local-openid-provider.ts) the main server signs in with. */
const openIdPort = port + 89;
// A fresh embedded database for every run; Playwright loads this file in each worker, so create it once.
const createdDataDirectories: string[] = [];
for (const [variable, prefix] of [
  ['E2E_DATA_DIR', 'medaptive-e2e-'],
  ['E2E_MESSAGING_DATA_DIR', 'medaptive-e2e-messaging-'],
] as const) {
  if (process.env[variable] !== undefined) continue;
  process.env[variable] = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  createdDataDirectories.push(process.env[variable]);
}
// Each run's databases are about 1 GB: left behind, a few dozen runs filled the disk (ENOSPC mid-run). Only the
// runner creates them (workers inherit the variables), and it exits after stopping the servers, so it removes them.
if (createdDataDirectories.length > 0) {
  process.on('exit', () => {
    for (const directory of createdDataDirectories) fs.rmSync(directory, { recursive: true, force: true });
  });
}

function serverEnvironment(options: { port: number; env: Record<string, string | undefined> }): Record<string, string> {
  return {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    // Tests read the SMS codes and e-mails the local channel records.
    DEV_OUTBOX: 'true',
    // Each test sends its own X-Forwarded-For (tests/e2e/fixtures.ts), so tests have separate rate limits.
    TRUSTED_PROXIES: '127.0.0.1,::1',
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
}

function server(options: { port: number; env: Record<string, string | undefined> }) {
  return {
    // The production build (`npm test` builds first); serve.ts rebuilds only if sources are newer.
    command: './node_modules/.bin/tsx src/cli/serve.ts',
    url: `http://127.0.0.1:${options.port}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    env: serverEnvironment(options),
  };
}

// The two embedded databases start alike (demo accounts, demo dataset, queued jobs): prepare one, once, and copy
// it, rather than have each server load the dataset in turn (Playwright starts its servers one after another).
// About a minute less per run. Only the runner does this, before the servers start; listing tests does not.
if (createdDataDirectories.length === 2 && !process.argv.includes('--list')) {
  process.stdout.write('Preparing the embedded databases of the end-to-end servers …\n');
  execFileSync('./node_modules/.bin/tsx', ['src/cli/serve.ts', '--prepare-only'], {
    // Where the servers' commands run too (Playwright starts them in the config's folder).
    cwd: import.meta.dirname,
    stdio: 'inherit',
    env: { ...process.env, ...serverEnvironment({ port, env: { DATA_DIR: process.env.E2E_DATA_DIR } }) },
  });
  fs.cpSync(process.env.E2E_DATA_DIR!, process.env.E2E_MESSAGING_DATA_DIR!, { recursive: true });
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArguments },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'pglite', testIgnore: [/postgres\.spec\.ts$/, messagingSpecs] },
    { name: 'live-messaging', testMatch: messagingSpecs, use: { baseURL: `http://127.0.0.1:${messagingPort}` } },
    ...(postgresUrl ? [{ name: 'postgres', testMatch: /postgres\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${postgresPort}` } }] : []),
  ],
  webServer: [
    {
      command: './node_modules/.bin/tsx tests/e2e/support/local-openid-provider.ts',
      url: `http://127.0.0.1:${openIdPort}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { OIDC_PORT: String(openIdPort), OIDC_REDIRECT_URIS: `http://127.0.0.1:${port}/api/auth/callback/oidc` },
    },
    server({
      port,
      env: {
        DATA_DIR: process.env.E2E_DATA_DIR,
        OIDC_ISSUER: `http://127.0.0.1:${openIdPort}`,
        OIDC_CLIENT_ID: 'medaptive-e2e',
        OIDC_CLIENT_SECRET: 'medaptive-e2e-secret-of-sufficient-length',
        OIDC_NAME: 'Test Identity Provider',
      },
    }),
    server({ port: messagingPort, env: { DATA_DIR: process.env.E2E_MESSAGING_DATA_DIR } }),
    ...(postgresUrl
      ? [
          server({ port: postgresPort, env: { DATABASE_URL: postgresUrl, SEED_DEMO: 'true' } }),
          server({ port: secondPostgresPort, env: { DATABASE_URL: postgresUrl, SEED_DEMO: 'true' } }),
        ]
      : []),
  ],
});
