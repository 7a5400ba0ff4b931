/**
 * One lab run: the same synthetic cohort (size and seed) under the personalised policy with the given
 * settings, under a uniform-random policy and under the fixed daily reminder, summarised for the lab pages.
 * The personalised run is watched as it learns: which action it chose for each persona each week, and its
 * posterior at the end of each week. Regret uses the simulator's truth (doses actually taken), which the
 * policy itself never sees. Pure computation: no database, no I/O.
 */
import 'server-only';
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import type { DecisionContext, MessagingPolicy, PolicyChoice, PolicyFeedback, RandomSource } from '@/engine/policy/contract';
import { armIndex } from '@/engine/policy/message-arms';
import {
  createPersonalisedPolicy,
  createPolicyState,
  type PersonalisedPolicy,
  summarisePosterior,
  truthBestArms,
} from '@/engine/policy/personalised';
import type { CohortSummary } from '@/engine/simulation/cohort-summary';
import { personas, type Persona } from '@/engine/simulation/personas';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import {
  labActionCount,
  labDays,
  type LabPersonaArmShares,
  type LabPolicyName,
  type LabPolicyOutcome,
  type LabPosteriorSeries,
  labResultVersion,
  type LabRunInput,
  labStartDate,
  type LabSummary,
  labWeeks,
} from '../schemas';
import { createUniformRandomPolicy } from '@/engine/simulation/policies/uniform-random-policy';

export type LabProgress = (patientDaysDone: number, totalPatientDays: number) => void;

const [startYear, startMonth, startDayOfMonth] = labStartDate.split('-').map(Number) as [number, number, number];
const labStartDay = dayNumberFromCivil(startYear, startMonth, startDayOfMonth);

/** Four decimals: enough for shares and posterior means, and keeps the stored result small (−0 is stored as 0, as JSON does). */
const round = (value: number) => Math.round(value * 10_000) / 10_000 || 0;

function actionOfChoice(choice: PolicyChoice): number {
  return choice.kind === 'message' ? 1 + armIndex(choice.arm.category, choice.arm.framing) : 0;
}

/** What the watched personalised run records besides the simulation's own summary. */
type Watch = {
  /** decisions[persona][week * labActionCount + action] */
  decisions: Float64Array[];
  snapshots: ReturnType<typeof summarisePosterior>[];
  versions: string[];
};

/**
 * Wraps the personalised policy so its decisions and weekly posteriors are recorded; everything else passes
 * through. The snapshot for the end of week w is taken at the first decision of week w + 1 (after the
 * simulator's end-of-day update), and the last one after the run.
 */
function watchPolicy(policy: PersonalisedPolicy, watch: Watch): MessagingPolicy & { endDay(dayIndex: number): void } {
  const personaIndex = new Map<Persona, number>(personas.map((persona, index) => [persona, index]));
  const snapshot = () => {
    watch.snapshots.push(summarisePosterior(policy.state()));
    watch.versions.push(policy.version);
  };
  snapshot();
  return {
    name: policy.name,
    get version() {
      return policy.version;
    },
    decide(context: DecisionContext, random: RandomSource) {
      const week = Math.floor(context.dayIndex / 7);
      while (watch.snapshots.length <= week) snapshot();
      const choice = policy.decide(context, random);
      const persona = personaIndex.get(context.persona);
      if (persona !== undefined && week < labWeeks) watch.decisions[persona]![week * labActionCount + actionOfChoice(choice)]! += 1;
      return choice;
    },
    learn(feedback: PolicyFeedback) {
      policy.learn?.(feedback);
    },
    endDay(dayIndex: number) {
      policy.endDay(dayIndex);
    },
  };
}

function outcomeOf(policy: LabPolicyName, summary: CohortSummary): LabPolicyOutcome {
  return {
    policy,
    meanPdc: round(summary.meanPdc),
    shareAdherent: round(summary.shareAdherent),
    messagesPerPatientPerWeek: round(summary.messagesPerPatient / (summary.days / 7)),
    doseTakenShareByWeek: summary.availableDoseTakenShareByWeek.slice(0, labWeeks).map(round),
  };
}

/** Running sum of (baseline − personalised) weekly dose-taken share, in percentage points × weeks. */
export function cumulativeRegret(baseline: readonly number[], personalised: readonly number[]): number[] {
  let total = 0;
  return personalised.map((share, week) => {
    total += ((baseline[week] ?? 0) - share) * 100;
    return round(total);
  });
}

export function armSharesOf(decisions: Float64Array, weeks: number): number[][] {
  return Array.from({ length: weeks }, (_, week) => {
    const row = decisions.subarray(week * labActionCount, (week + 1) * labActionCount);
    const total = row.reduce((sum, count) => sum + count, 0);
    return Array.from(row, (count) => (total === 0 ? 0 : round(count / total)));
  });
}

export function posteriorSeriesOf(snapshots: readonly ReturnType<typeof summarisePosterior>[]): LabPosteriorSeries[] {
  const series = new Map<string, LabPosteriorSeries>();
  snapshots.forEach((snapshot, week) => {
    for (const entry of snapshot) {
      const key = `${entry.persona}:${entry.arm}`;
      let found = series.get(key);
      if (found === undefined) {
        found = { persona: entry.persona, action: entry.arm, mean: [], lower: [], upper: [], observations: [] };
        series.set(key, found);
      }
      found.mean[week] = round(entry.mean);
      found.lower[week] = round(entry.lower);
      found.upper[week] = round(entry.upper);
      found.observations[week] = entry.observations;
    }
  });
  return [...series.values()];
}

export function simulateLab(options: { input: LabRunInput; onProgress?: LabProgress }): LabSummary {
  const { patients, seed, settings } = options.input;
  const runPatientDays = patients * labDays;
  const totalPatientDays = runPatientDays * 3;
  const progress = (offset: number) =>
    options.onProgress === undefined ? undefined : (done: number) => options.onProgress?.(offset + done, totalPatientDays);
  const cohort = { patientCount: patients, days: labDays, seed, startDay: labStartDay };

  const watch: Watch = { decisions: personas.map(() => new Float64Array(labWeeks * labActionCount)), snapshots: [], versions: [] };
  const personaPatients = new Map<Persona, number>();
  const personalisedPolicy = createPersonalisedPolicy({ state: createPolicyState({ settings }), settings });
  const personalised = simulateCohort({
    ...cohort,
    policy: watchPolicy(personalisedPolicy, watch),
    sink: { patient: (patient) => personaPatients.set(patient.persona, (personaPatients.get(patient.persona) ?? 0) + 1) },
    onProgress: progress(0),
  });
  while (watch.snapshots.length <= labWeeks) {
    watch.snapshots.push(summarisePosterior(personalisedPolicy.state()));
    watch.versions.push(personalisedPolicy.version);
  }
  const uniformRandom = simulateCohort({ ...cohort, policy: createUniformRandomPolicy(), onProgress: progress(runPatientDays) });
  const fixedDaily = simulateCohort({ ...cohort, policy: createFixedDailyPolicy(), onProgress: progress(2 * runPatientDays) });

  const outcomes = [
    outcomeOf('personalised', personalised),
    outcomeOf('uniform-random', uniformRandom),
    outcomeOf('fixed-daily', fixedDaily),
  ];
  const [mine, random, daily] = outcomes.map((outcome) => outcome.doseTakenShareByWeek) as [number[], number[], number[]];
  const truth = truthBestArms();
  const armShares: LabPersonaArmShares[] = personas.map((persona, index) => ({
    persona,
    patients: personaPatients.get(persona) ?? 0,
    sharesByWeek: armSharesOf(watch.decisions[index]!, labWeeks),
    truthBestActions: [...(truth[persona] ?? [])],
  }));
  return {
    labVersion: labResultVersion,
    patients,
    seed,
    days: labDays,
    weeks: labWeeks,
    startDate: labStartDate,
    settings,
    finalPolicyVersion: personalisedPolicy.version,
    outcomes,
    armShares,
    cumulativeRegret: { vsUniformRandom: cumulativeRegret(random, mine), vsFixedDaily: cumulativeRegret(daily, mine) },
    posteriorVersions: watch.versions,
    posterior: posteriorSeriesOf(watch.snapshots),
  };
}
