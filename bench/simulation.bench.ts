/**
 * Cohort simulator: 10,000 patients × 365 days under the fixed daily reminder (target: under 10 s on one
 * core), and memory at 2,500 / 5,000 / 10,000 patients to show it grows linearly with the cohort.
 *
 * Each measurement is a fresh `node --import tsx --single-threaded` process: V8 then runs garbage
 * collection and compilation on the main thread too, so the process uses one core (its CPU time is
 * reported beside the wall time to show it). The timed span is `simulateCohort` itself — every record
 * is built and handed to a sink, which keeps a reference so none can be optimised away — without
 * writing CSV files. Memory: the child's peak RSS, and the heap still reachable after a full garbage
 * collection at the end of the run, while every patient's state is alive.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPolicy, isPolicyName, type PolicyName } from '@/engine/simulation/policies/policy-registry';
import type { SimulationSink } from '@/engine/simulation/records';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';

const DAYS = 365;
const SEED = 1;
const START_DAY = 20_089; // 2025-01-01
const TIMED_PATIENTS = 10_000;
const TIMED_RUNS = 3;
const TARGET_SECONDS = 10;
const MEMORY_PATIENTS = [2_500, 5_000, 10_000];

type Measurement = {
  patients: number;
  policy: PolicyName;
  wallSeconds: number;
  cpuSeconds: number;
  maxRssMegabytes: number;
  retainedHeapMegabytes: number | null;
  records: number;
};

const benchFile = new URL(import.meta.url).pathname;
const repositoryRoot = path.resolve(path.dirname(benchFile), '..');

/** In the child: one simulation, measured; prints the measurement as JSON. */
function measure(patients: number, policy: PolicyName, measureRetainedHeap: boolean): Measurement {
  let records = 0;
  let lastRecord: unknown = null;
  const keep = (record: unknown) => {
    records += 1;
    lastRecord = record;
  };
  const sink: SimulationSink = { patient: keep, dispensing: keep, doseEvent: keep, message: keep };
  const collectGarbage = (globalThis as { gc?: () => void }).gc;
  let retainedHeapMegabytes: number | null = null;

  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  simulateCohort({
    patientCount: patients,
    days: DAYS,
    seed: SEED,
    startDay: START_DAY,
    policy: createPolicy(policy),
    sink,
    onProgress: (done, total) => {
      // At the very end every patient's state is still alive: what a full collection cannot free.
      if (measureRetainedHeap && done === total && collectGarbage !== undefined) {
        collectGarbage();
        retainedHeapMegabytes = process.memoryUsage().heapUsed / 1e6;
      }
    },
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (lastRecord === null) throw new Error('The simulation produced no records');
  return {
    patients,
    policy,
    wallSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMegabytes: process.resourceUsage().maxRSS / 1024,
    retainedHeapMegabytes,
    records,
  };
}

/** In the parent: runs one measurement in a fresh single-threaded process. */
function measureInChild(patients: number, policy: PolicyName, measureRetainedHeap: boolean): Measurement {
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--single-threaded',
      ...(measureRetainedHeap ? ['--expose-gc'] : []),
      benchFile,
      '--child',
      String(patients),
      policy,
      measureRetainedHeap ? 'memory' : 'time',
    ],
    { cwd: repositoryRoot, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error(`Simulation of ${patients} patients (${policy}) failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Measurement;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function main(): void {
  const load = os.loadavg()[0]?.toFixed(1) ?? '?';
  process.stdout.write(
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${load}; ${DAYS} days, seed ${SEED}; each run a fresh single-threaded process\n\n`,
  );

  const timed = Array.from({ length: TIMED_RUNS }, () => measureInChild(TIMED_PATIENTS, 'fixed-daily', false));
  const others = (['none', 'fixed-weekly'] as const).map((policy) => measureInChild(TIMED_PATIENTS, policy, false));
  const wall = median(timed.map((run) => run.wallSeconds));
  const lines = [
    `| patients × days | policy | wall time (s) | CPU time (s) | records | peak RSS (MB) | target |`,
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    `| ${TIMED_PATIENTS.toLocaleString('en')} × ${DAYS} | fixed-daily (median of ${TIMED_RUNS}; wall/CPU s: ${timed.map((run) => `${run.wallSeconds.toFixed(2)}/${run.cpuSeconds.toFixed(2)}`).join(', ')}) | ${wall.toFixed(2)} | ${median(timed.map((run) => run.cpuSeconds)).toFixed(2)} | ${timed[0]?.records.toLocaleString('en')} | ${Math.max(...timed.map((run) => run.maxRssMegabytes)).toFixed(0)} | < ${TARGET_SECONDS} s: ${wall < TARGET_SECONDS ? 'met' : 'MISSED'} |`,
    ...others.map(
      (run) =>
        `| ${TIMED_PATIENTS.toLocaleString('en')} × ${DAYS} | ${run.policy} | ${run.wallSeconds.toFixed(2)} | ${run.cpuSeconds.toFixed(2)} | ${run.records.toLocaleString('en')} | ${run.maxRssMegabytes.toFixed(0)} | |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);

  const memory = MEMORY_PATIENTS.map((patients) => measureInChild(patients, 'fixed-daily', true));
  const memoryLines = ['| patients | retained heap (MB) | per patient (kB) | peak RSS (MB) |', '| ---: | ---: | ---: | ---: |'];
  for (const run of memory) {
    const retained = run.retainedHeapMegabytes ?? NaN;
    memoryLines.push(
      `| ${run.patients.toLocaleString('en')} | ${retained.toFixed(1)} | ${((retained * 1000) / run.patients).toFixed(2)} | ${run.maxRssMegabytes.toFixed(0)} |`,
    );
  }
  process.stdout.write(`${memoryLines.join('\n')}\n`);
  const [smallest, , largest] = memory;
  if (smallest?.retainedHeapMegabytes != null && largest?.retainedHeapMegabytes != null) {
    const slope = ((largest.retainedHeapMegabytes - smallest.retainedHeapMegabytes) * 1000) / (largest.patients - smallest.patients);
    process.stdout.write(`\nRetained heap grows by ${slope.toFixed(2)} kB per added patient (2,500 → 10,000).\n`);
  }
  if (wall >= TARGET_SECONDS) process.exitCode = 1;
}

const [flag, patientsArgument, policyArgument, mode] = process.argv.slice(2);
if (flag === '--child') {
  const patients = Number(patientsArgument);
  if (!Number.isInteger(patients) || patients < 1 || policyArgument === undefined || !isPolicyName(policyArgument)) {
    throw new Error(`Usage: simulation.bench.ts --child PATIENTS POLICY time|memory`);
  }
  process.stdout.write(JSON.stringify(measure(patients, policyArgument, mode === 'memory')));
} else {
  main();
}
