/**
 * What targeting by risk is worth, simulated: a cohort lives `historyWeeks` under the usual weekly check-in,
 * is scored at that week boundary, and then for `followUpWeeks` a daily reminder goes to (a) no one, (b) a
 * random `share` of patients, (c) the `share` with the highest risk, (d) everyone. (b) and (c) spend the same
 * message budget. The simulator is causal, so every scenario shares the same history up to the boundary and
 * differs only after it. The outcome is the simulator's truth: the share of doses taken among doses due
 * with supply at hand (what reminders can change), averaged over the follow-up weeks.
 */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';
import { createFixedWeeklyPolicy } from '@/engine/simulation/policies/fixed-weekly-policy';
import { defaultDailyReminderMinute } from '@/engine/simulation/policies/fixed-daily-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { computeFeatures, featureCount } from './features';
import { createHistoryCollector, simulationSinkFor, type PatientHistory } from './history';
import { simulatedStartDay } from './simulate-histories';

export const targetingScenarios = ['no-one', 'random', 'top-risk', 'everyone'] as const;
export type TargetingScenario = (typeof targetingScenarios)[number];

export type TargetingResult = {
  scenario: TargetingScenario;
  patientsMessaged: number;
  /** Outbound messages in the follow-up weeks. */
  messages: number;
  /** Doses taken / doses due with supply at hand, over the follow-up weeks (simulation truth). */
  adherence: number;
};

export type TargetingEffect = {
  simulated: true;
  patients: number;
  seed: number;
  historyWeeks: number;
  followUpWeeks: number;
  share: number;
  results: TargetingResult[];
};

const reminder: PolicyChoice = {
  kind: 'message',
  arm: { category: 'reminder', framing: 'neutral' },
  minuteOfDay: defaultDailyReminderMinute,
  propensity: 1,
};
const noMessage: PolicyChoice = { kind: 'no-message', propensity: 1 };

function switchingPolicy(base: MessagingPolicy, boundary: number, chosen: (patientId: string) => boolean): MessagingPolicy {
  return {
    name: 'risk-targeting',
    version: '1',
    decide: (context, random) =>
      context.dayIndex < boundary ? base.decide(context, random) : chosen(context.patientId) ? reminder : noMessage,
  };
}

export function simulateTargeting(options: {
  patients: number;
  seed: number;
  /** Risk per row of features (`featureCount` columns each): the model under test. */
  score: (features: Float64Array) => Float64Array;
  historyWeeks?: number;
  followUpWeeks?: number;
  share?: number;
}): TargetingEffect {
  const historyWeeks = options.historyWeeks ?? 5;
  const followUpWeeks = options.followUpWeeks ?? 4;
  const share = options.share ?? 0.2;
  const boundary = historyWeeks * 7;
  const days = boundary + followUpWeeks * 7;
  const base = createFixedWeeklyPolicy();

  const run = (chosen: (patientId: string) => boolean, collect: boolean) => {
    const collector = createHistoryCollector(simulatedStartDay, boundary);
    const sink = collect ? simulationSinkFor(collector) : {};
    let messages = 0;
    const summary = simulateCohort({
      patientCount: options.patients,
      days,
      seed: options.seed,
      startDay: simulatedStartDay,
      policy: switchingPolicy(base, boundary, chosen),
      sink: {
        ...sink,
        message: (message) => {
          sink.message?.(message);
          if (message.direction === 'outbound' && message.day >= simulatedStartDay + boundary) messages += 1;
        },
      },
    });
    const weeks = summary.availableDoseTakenShareByWeek.slice(historyWeeks, historyWeeks + followUpWeeks);
    return { histories: collector.histories(), messages, adherence: weeks.reduce((total, value) => total + value, 0) / weeks.length };
  };

  const none = run(() => false, true);
  const histories: PatientHistory[] = none.histories;
  const features = new Float64Array(histories.length * featureCount);
  histories.forEach((history, index) => features.set(computeFeatures(history, boundary), index * featureCount));
  const scores = options.score(features);
  const budget = Math.round(histories.length * share);
  const byRisk = histories.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const topRisk = new Set(byRisk.slice(0, budget).map((index) => histories[index]!.patient.id));
  // A seeded shuffle for the random arm, independent of the scores.
  let state = (options.seed ^ 0x5bd1e995) >>> 0;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
  const shuffled = histories.map((history) => history.patient.id);
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const swap = Math.floor(random() * (index + 1));
    [shuffled[index], shuffled[swap]] = [shuffled[swap]!, shuffled[index]!];
  }
  const randomSet = new Set(shuffled.slice(0, budget));

  const randomRun = run((id) => randomSet.has(id), false);
  const topRun = run((id) => topRisk.has(id), false);
  const everyoneRun = run(() => true, false);
  return {
    simulated: true,
    patients: histories.length,
    seed: options.seed,
    historyWeeks,
    followUpWeeks,
    share,
    results: [
      { scenario: 'no-one', patientsMessaged: 0, messages: none.messages, adherence: none.adherence },
      { scenario: 'random', patientsMessaged: budget, messages: randomRun.messages, adherence: randomRun.adherence },
      { scenario: 'top-risk', patientsMessaged: budget, messages: topRun.messages, adherence: topRun.adherence },
      { scenario: 'everyone', patientsMessaged: histories.length, messages: everyoneRun.messages, adherence: everyoneRun.adherence },
    ],
  };
}
