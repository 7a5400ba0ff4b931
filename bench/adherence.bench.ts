/**
 * Adherence engine end to end through the CLI, against AdhereR 0.8.1 on the same job: med.events
 * replicated to 100,000 patients (patient id + 100·k, k = 0…999: 1.08 M events), follow-up 0 + 730,
 * observation window 182 + 365, pooled carry-over. Each run is a fresh `node --import tsx` process
 * (startup, CSV parsing and writing the output included); wall time is measured here, peak memory
 * is the child's own maxRSS. AdhereR's figures (single thread, a 2-core machine like ours) come from
 * ../shared/testdata/README.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const repositoryRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const medicationEvents = path.resolve(repositoryRoot, '../shared/testdata/adherer/med_events.csv');
const RUNS = 3;
/** AdhereR's seconds per number of replicas (10,000 and 100,000 patients). */
const ADHERER_SECONDS: Record<number, Record<string, number>> = { 100: { CMA7: 11.9, CMA9: 33.8 }, 1000: { CMA7: 125.7, CMA9: 392.9 } };
const TARGET_SPEED_UP = 100;

type Run = { seconds: number; maxRssKilobytes: number };

/** med.events with patient ids shifted by 100·k for k = 0…replicas−1 (ids 1–100 become 1–100·replicas). */
function writeReplicatedInput(file: string, replicas: number): number {
  const [header, ...rows] = fs.readFileSync(medicationEvents, 'utf8').trim().split('\n');
  const parsed = rows.map((row) => {
    const comma = row.indexOf(',');
    return { id: Number(row.slice(0, comma)), rest: row.slice(comma) };
  });
  const descriptor = fs.openSync(file, 'w');
  fs.writeSync(descriptor, `${header}\n`);
  for (let replica = 0; replica < replicas; replica += 1) {
    fs.writeSync(descriptor, parsed.map(({ id, rest }) => `${id + 100 * replica}${rest}\n`).join(''));
  }
  fs.closeSync(descriptor);
  return parsed.length * replicas;
}

function runCli(cma: string, input: string, output: string): Run {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'adherence',
      '--input',
      input,
      '--cma',
      cma,
      '--date-format',
      'mdy',
      '--followup-start',
      '0',
      '--followup-duration',
      '730',
      '--observation-start',
      '182',
      '--observation-duration',
      '365',
      '--output',
      output,
      '--print-resource-usage',
    ],
    { cwd: repositoryRoot, encoding: 'utf8' },
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${cma} failed (${result.status}): ${result.stderr}`);
  const maxRss = /maxRSS=(\d+)/.exec(result.stderr);
  if (!maxRss) throw new Error(`${cma}: the child did not report its memory: ${result.stderr}`);
  return { seconds, maxRssKilobytes: Number(maxRss[1]) };
}

/** Every replica of a patient has the same events relative to its first, so the same value. */
function checkOutput(cma: string, output: string, replicas: number): void {
  const lines = fs.readFileSync(output, 'utf8').trim().split('\n');
  if (lines[0] !== 'patient_id,value' || lines.length !== 100 * replicas + 1)
    throw new Error(`${cma}: unexpected output shape (${lines.length} lines)`);
  const valueOf = new Map(lines.slice(1).map((line) => line.split(',') as [string, string]));
  for (let id = 1; id <= 100; id += 1) {
    for (const replica of [1, Math.floor(replicas / 2), replicas - 1]) {
      if (valueOf.get(String(id + 100 * replica)) !== valueOf.get(String(id)))
        throw new Error(`${cma}: patient ${id + 100 * replica} differs from patient ${id}`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'adherence-bench-'));
try {
  process.stdout.write(`${os.cpus().length} CPUs, Node ${process.version}; wall time: median of ${RUNS} runs after a warm-up run\n\n`);
  const lines = [
    '| patients | events | measure | wall time (s) | runs (s) | peak RSS (MB) | AdhereR 0.8.1 (s) | speed-up | target (≥100×) |',
    '| ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const replicas of [100, 1000]) {
    const input = path.join(directory, `med_events_${replicas}.csv`);
    const eventCount = writeReplicatedInput(input, replicas);
    for (const cma of ['CMA7', 'CMA9']) {
      const output = path.join(directory, `${cma}.csv`);
      runCli(cma, input, output); // warm-up: tsx's transform cache, the file in the page cache
      checkOutput(cma, output, replicas);
      const runs = Array.from({ length: RUNS }, () => runCli(cma, input, output));
      const seconds = median(runs.map((run) => run.seconds));
      const peakMegabytes = Math.max(...runs.map((run) => run.maxRssKilobytes)) / 1024;
      const adherer = ADHERER_SECONDS[replicas]![cma]!;
      const speedUp = adherer / seconds;
      lines.push(
        `| ${(100 * replicas).toLocaleString('en')} | ${eventCount.toLocaleString('en')} | ${cma} | ${seconds.toFixed(2)} | ${runs.map((run) => run.seconds.toFixed(2)).join(', ')} | ` +
          `${peakMegabytes.toFixed(0)} | ${adherer} | ${Math.round(speedUp)}× | ${replicas === 1000 ? (speedUp >= TARGET_SPEED_UP ? 'met' : 'NOT met') : '—'} |`,
      );
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  fs.rmSync(directory, { recursive: true, force: true });
}
