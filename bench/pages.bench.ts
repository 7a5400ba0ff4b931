/**
 * `npm run bench -- pages` (issue 19 item 6): what a user feels on the pages they open most.
 *
 * Starts the production server (`npm run build` first) on a fresh embedded database with the demo dataset,
 * signs the demo accounts in through the API, then
 * 1. times the server's answer (the whole HTML) for the compliance journey's first load and its filters and for
 *    switching patients on the profile — median of 5 after a warm-up, target under 1 s;
 * 2. runs Lighthouse (mobile form factor, its default simulated throttling) in Debian's Chromium over the home
 *    page, the patient profile, the compliance journey and the comparison — target performance ≥ 90 with
 *    accessibility staying at 100.
 * Loopback only; bounded: 4 Lighthouse runs and 5 timed requests per address.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright';
import { chromiumArguments, chromiumPath } from '../tests/e2e/support/chromium';
import { freePort, killServer, startServer } from './support/server';

const password = 'Medaptive-demo-1';
const prefix = '/algorithms/patient-engagement/';

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email}: HTTP ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function medianMilliseconds(url: string, cookie: string, runs = 5, headers: Record<string, string> = {}): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { ...headers, Cookie: cookie } });
    await response.text();
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    if (run > 0) times.push(performance.now() - started); // the first is the warm-up
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Patient ids from the profile's patient picker, to switch between: the picker is a client combobox whose
 * choices (each with its `patient-profile?patient=<id>…` address) travel in the page's inline RSC data.
 */
async function patientIds(base: string, cookie: string): Promise<string[]> {
  const html = await (await fetch(`${base}${prefix}patient-profile`, { headers: { Cookie: cookie } })).text();
  return [...new Set([...html.matchAll(/patient-profile\?patient=([0-9a-f-]{36})/g)].map((match) => match[1]!))].slice(0, 2);
}

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-bench-pages-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
process.stdout.write('Starting the production server on a fresh embedded database with the demo dataset…\n');
const { server, seconds } = await startServer({ DATA_DIR: dataDirectory, SEED_DEMO: 'true', DEV_OUTBOX: 'true' }, port);
process.stdout.write(`ready in ${seconds.toFixed(0)} s; load average ${os.loadavg()[0]!.toFixed(1)}\n`);
// Measured on a settled server: for its first seconds the start-up warm-ups (the comparison's default cohort, the
// survey persona-accuracy curves) hold the CPU, which Lighthouse's simulated phone would count against the pages.
const warmUps = [/Default policy comparison (simulated|was not)/, /Survey persona accuracy (measured|was not)/];
const settleDeadline = Date.now() + 180_000;
while (!warmUps.every((pattern) => pattern.test(server.output())) && Date.now() < settleDeadline) {
  await new Promise((resolve) => setTimeout(resolve, 250));
}
process.stdout.write(`start-up warm-ups done; load average ${os.loadavg()[0]!.toFixed(1)}\n\n`);

try {
  const patient = await signIn(base, 'patient@medaptive.test');
  const clinician = await signIn(base, 'clinician@medaptive.test');

  const ids = await patientIds(base, clinician);
  const journey = `${base}${prefix}compliance-journey`;
  // The patient picker switches in the page: the browser asks for the RSC payload (header RSC: 1), not the HTML.
  // Timed without the router's state tree, so the whole page's payload: an upper bound on what a switch fetches.
  const inPage = { RSC: '1' };
  const timed: [string, string, string, Record<string, string>?][] = [
    ['compliance journey, first load (clinician)', journey, clinician],
    ['compliance journey, last 3 months', `${journey}?period=last-3-months`, clinician],
    ['compliance journey, one persona', `${journey}?persona=forgetful-elder`, clinician],
    ...ids.flatMap((id, index): [string, string, string, Record<string, string>?][] => [
      [`patient profile, open patient ${index + 1} (whole HTML)`, `${base}${prefix}patient-profile?patient=${id}`, clinician],
      [
        `patient profile, switch to patient ${index + 1} in the page (RSC payload)`,
        `${base}${prefix}patient-profile?patient=${id}`,
        clinician,
        inPage,
      ],
    ]),
  ];
  process.stdout.write('| server answer | median | target |\n| --- | ---: | --- |\n');
  for (const [label, url, cookie, headers] of timed) {
    const milliseconds = await medianMilliseconds(url, cookie, 5, headers);
    process.stdout.write(`| ${label} | ${milliseconds.toFixed(0)} ms | ${milliseconds < 1000 ? 'met' : '**not met**'} (< 1 s) |\n`);
  }

  const debuggingPort = await freePort();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArguments, `--remote-debugging-port=${debuggingPort}`],
  });
  try {
    const audited: [string, string, string][] = [
      ['home page (patient)', `${base}/`, patient],
      ['patient profile (patient, own)', `${base}${prefix}patient-profile`, patient],
      ['compliance journey (clinician)', journey, clinician],
      ['comparison (clinician)', `${base}${prefix}medaptive-comparison`, clinician],
    ];
    process.stdout.write(
      '\n| Lighthouse, mobile | performance | accessibility | LCP | TBT | CLS |\n| --- | ---: | ---: | ---: | ---: | ---: |\n',
    );
    for (const [label, url, cookie] of audited) {
      const result = await lighthouse(url, {
        port: debuggingPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: { Cookie: cookie },
      });
      if (result === undefined) throw new Error(`Lighthouse gave no result for ${url}`);
      const { categories, audits } = result.lhr;
      const score = (value: number | null | undefined) => (value === null || value === undefined ? '—' : String(Math.round(value * 100)));
      process.stdout.write(
        `| ${label} | ${score(categories.performance?.score)} | ${score(categories.accessibility?.score)} | ` +
          `${audits['largest-contentful-paint']?.displayValue ?? '—'} | ${audits['total-blocking-time']?.displayValue ?? '—'} | ` +
          `${audits['cumulative-layout-shift']?.displayValue ?? '—'} |\n`,
      );
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(`\nload average at the end ${os.loadavg()[0]!.toFixed(1)}\n`);
} finally {
  await killServer(server, 'SIGTERM');
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}
