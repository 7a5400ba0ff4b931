/**
 * The personalised policy (issue 13): decide for 100,000 patients (target under 1 s), the batch update
 * from 1,000,000 logged decisions (under 10 s), and 10,000 patients × 365 days simulated under the policy,
 * learning daily (under 30 s).
 *
 * Each measurement is a fresh `node --import tsx --single-threaded` process (one core; CPU time is
 * reported beside wall time). Inputs are built before the clock starts: synthetic decision contexts
 * across the six personas, and for the update a log whose rewards depend on the arm, so the update does
 * real work. Deciding starts from a state learned from 200,000 decisions, as in production.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DecisionContext, PolicyChoice } from '@/engine/policy/contract';
import { armCount } from '@/engine/policy/message-arms';
import { createPersonalisedPolicy, createPolicyState, updatePolicyState, type LoggedDecision } from '@/engine/policy/personalised';
import { personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';

const SEED = 1;
const START_DAY = 20_089; // 2025-01-01
const DECIDE_PATIENTS = 100_000;
const UPDATE_DECISIONS = 1_000_000;
const SIMULATED_PATIENTS = 10_000;
const SIMULATED_DAYS = 365;
const targets = { decide: 1, update: 10, simulate: 30 } as const;
type Part = keyof typeof targets;

type Measurement = { part: Part; wallSeconds: number; cpuSeconds: number; maxRssMegabytes: number; detail: string };

const benchFile = new URL(import.meta.url).pathname;
const repositoryRoot = path.resolve(path.dirname(benchFile), '..');

function syntheticContext(index: number, random: () => number): DecisionContext {
  const scheduled = 7 + Math.floor(random() * 8);
  const last7Days = Math.floor(random() * 5);
  return {
    patientId: `bench-${index}`,
    persona: personas[index % personas.length]!,
    features: {
      ageBand: '55-64',
      sex: index % 2 === 0 ? 'female' : 'male',
      conditions: ['hypertension'],
      productCount: 1 + (index % 3),
      preferredChannel: 'sms',
      doseObserver: index % 5 === 0 ? 'smart-bottle' : 'app',
    },
    day: START_DAY + (index % 7),
    dayIndex: index % 365,
    weekday: index % 7,
    minuteOfDay: 300,
    firstDoseMinute: 420 + Math.floor(random() * 180),
    recentHistory: {
      dosesScheduledLast7Days: scheduled,
      dosesConfirmedLast7Days: Math.floor(random() * (scheduled + 1)),
      daysSinceLastReply: random() < 0.5 ? null : Math.floor(random() * 20),
      estimatedDaysOfSupplyLeft: Math.floor(random() * 30),
    },
    messageCounts: { last7Days, last28Days: last7Days * 4, total: 50, repliesLast28Days: 1 },
  };
}

/** A log drawn from a uniform-ish logging policy; rewards favour a few arms so the posterior moves. */
function syntheticLog(count: number, patients: number): LoggedDecision[] {
  const stream = createRandomStream(SEED, 0, 'policy');
  const random = () => nextUniform(stream);
  const contexts = Array.from({ length: patients }, (_, index) => syntheticContext(index, random));
  const probabilities = new Array<number>(armCount + 1).fill(0.5 / armCount);
  probabilities[0] = 0.5;
  const log: LoggedDecision[] = [];
  for (let index = 0; index < count; index += 1) {
    const context = contexts[index % patients]!;
    const uniform = random();
    const action = uniform < 0.5 ? 0 : 1 + Math.min(armCount - 1, Math.floor((uniform - 0.5) * 2 * armCount));
    const reward = 0.55 + (action > 0 && action % 4 === 2 ? 0.03 : 0) + (random() - 0.5) * 0.6;
    log.push({
      patientId: context.patientId,
      persona: context.persona,
      context,
      action,
      propensity: probabilities[action]!,
      observedReward: reward,
      armProbabilities: probabilities,
    });
  }
  return log;
}

function timed(run: () => string): { wallSeconds: number; cpuSeconds: number; detail: string } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const detail = run();
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, detail };
}

function measure(part: Part): Measurement {
  let result: { wallSeconds: number; cpuSeconds: number; detail: string };
  if (part === 'decide') {
    const state = updatePolicyState(createPolicyState(), syntheticLog(200_000, 20_000));
    const stream = createRandomStream(SEED, 1, 'policy');
    const random = () => nextUniform(stream);
    const contexts = Array.from({ length: DECIDE_PATIENTS }, (_, index) => syntheticContext(index, random));
    const policy = createPersonalisedPolicy({ state });
    const choices: PolicyChoice[] = new Array<PolicyChoice>(DECIDE_PATIENTS);
    result = timed(() => {
      for (let index = 0; index < DECIDE_PATIENTS; index += 1) choices[index] = policy.decide(contexts[index]!, random);
      const sent = choices.filter((choice) => choice.kind === 'message').length;
      return `${DECIDE_PATIENTS.toLocaleString('en')} decisions, ${((100 * sent) / DECIDE_PATIENTS).toFixed(0)}% messages`;
    });
  } else if (part === 'update') {
    const log = syntheticLog(UPDATE_DECISIONS, 100_000);
    const prior = createPolicyState();
    result = timed(() => {
      const state = updatePolicyState(prior, log);
      return `${state.decisionsUsed.toLocaleString('en')} decisions learned, ${Object.keys(state.patients).length.toLocaleString('en')} patients`;
    });
  } else {
    result = timed(() => {
      const policy = createPersonalisedPolicy();
      const summary = simulateCohort({ patientCount: SIMULATED_PATIENTS, days: SIMULATED_DAYS, seed: SEED, startDay: START_DAY, policy });
      return `PDC ≥ 0.8: ${summary.shareAdherent.toFixed(3)}, ${summary.messagesPerPatient.toFixed(0)} messages per patient, policy version ${policy.version}`;
    });
  }
  return { part, ...result, maxRssMegabytes: process.resourceUsage().maxRSS / 1024 };
}

function measureInChild(part: Part): Measurement {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--single-threaded', benchFile, '--child', part], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`The ${part} measurement failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Measurement;
}

const labels: Record<Part, string> = {
  decide: `decide for ${DECIDE_PATIENTS.toLocaleString('en')} patients`,
  update: `update from ${UPDATE_DECISIONS.toLocaleString('en')} logged decisions`,
  simulate: `simulate ${SIMULATED_PATIENTS.toLocaleString('en')} patients × ${SIMULATED_DAYS} days, learning daily`,
};

function main(): void {
  const load = os.loadavg()[0]?.toFixed(1) ?? '?';
  process.stdout.write(
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${load}; seed ${SEED}; each part a fresh single-threaded process\n\n`,
  );
  const lines = ['| part | wall time (s) | CPU time (s) | peak RSS (MB) | target | result |', '| --- | ---: | ---: | ---: | --- | --- |'];
  let missed = false;
  for (const part of ['decide', 'update', 'simulate'] as const) {
    const run = measureInChild(part);
    const met = run.wallSeconds < targets[part];
    missed ||= !met;
    lines.push(
      `| ${labels[part]} | ${run.wallSeconds.toFixed(2)} | ${run.cpuSeconds.toFixed(2)} | ${run.maxRssMegabytes.toFixed(0)} | < ${targets[part]} s: ${met ? 'met' : 'MISSED'} | ${run.detail} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (missed) process.exitCode = 1;
}

const [flag, partArgument] = process.argv.slice(2);
if (flag === '--child') {
  if (partArgument !== 'decide' && partArgument !== 'update' && partArgument !== 'simulate')
    throw new Error('Usage: policy.bench.ts --child decide|update|simulate');
  process.stdout.write(JSON.stringify(measure(partArgument)));
} else {
  main();
}
