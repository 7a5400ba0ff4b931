/**
 * The honest comparison the issue asks for, on the simulator (evaluation only: this module may read the
 * simulator's truth, the policy never does). Fixed daily reminders and the personalised policy run on the
 * same synthetic cohort (same seed: the same patients living the same days except where messages differ),
 * and the personalised policy's most-chosen arm per persona in week 12 is compared with the simulator's
 * best arm for that persona.
 */
import { armCount, type MessageCategory, type MessageFraming } from '@/engine/policy/message-arms';
import type { DecisionContext, MessagingPolicy, RandomSource } from '@/engine/policy/contract';
import type { CohortSummary } from '@/engine/simulation/cohort-summary';
import { personaParameters, personas, type Persona } from '@/engine/simulation/personas';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { arms, createPersonalisedPolicy } from './personalised-policy';
import type { PersonalisedSettings } from './settings';

/**
 * The simulator's best arm(s) per persona, as action indices (1 + armIndex): the arms whose content fits
 * the persona best (category fit × framing fit, message-response's `strength` before habituation), which
 * scales every effect a read message has on that patient. Ties are all returned.
 */
export function truthBestArms(): Record<Persona, number[]> {
  const best = {} as Record<Persona, number[]>;
  for (const persona of personas) {
    const { categoryFit, framingFit } = personaParameters[persona];
    const fits = arms.map((arm) => categoryFit[arm.category] * framingFit[arm.framing]);
    const top = Math.max(...fits);
    best[persona] = fits.flatMap((fit, arm) => (Math.abs(fit - top) < 1e-9 ? [arm + 1] : []));
  }
  return best;
}

export type PolicyOutcome = {
  policy: string;
  /** Share of patients with PDC ≥ 0.8 over the whole run. */
  shareAdherent: number;
  meanPdc: number;
  /** Outbound messages per patient over the run. */
  messagesPerPatient: number;
  optOutRate: number;
  persistence: number;
};

export type PersonaArmResult = {
  persona: Persona;
  /** Most-chosen arm in the evaluation week (action index), null if nothing was sent. */
  mostChosenArm: number | null;
  category: MessageCategory | null;
  framing: MessageFraming | null;
  /** Its share of that persona's messages in the evaluation week. */
  share: number;
  truthBestArms: number[];
  matches: boolean;
};

export type PolicyResults = {
  patients: number;
  days: number;
  seed: number;
  startDay: number;
  fixedDaily: PolicyOutcome;
  personalised: PolicyOutcome;
  /** Days [start, end) in which the most-chosen arms are counted: week 12. */
  armWeek: { startDayIndex: number; endDayIndex: number };
  arms: PersonaArmResult[];
  targets: {
    /** Personalised share at PDC ≥ 0.8 at least fixed daily's. */
    adherence: boolean;
    /** Personalised messages at most half of fixed daily's. */
    messages: boolean;
    /** Personas whose most-chosen arm is a best arm; the target is 5 of 6. */
    matchingPersonas: number;
    armsMatch: boolean;
  };
};

const armWeekStart = 77;
const armWeekEnd = 84;

function outcome(summary: CohortSummary): PolicyOutcome {
  return {
    policy: summary.policy,
    shareAdherent: summary.shareAdherent,
    meanPdc: summary.meanPdc,
    messagesPerPatient: summary.messagesPerPatient,
    optOutRate: summary.optOutRate,
    persistence: summary.persistence,
  };
}

/** Counts the arms a policy chooses per persona in the evaluation week, passing everything through. */
function countingArms(policy: MessagingPolicy, counts: Record<Persona, Float64Array>): MessagingPolicy {
  return {
    name: policy.name,
    get version() {
      return policy.version;
    },
    decide(context: DecisionContext, random: RandomSource) {
      const choice = policy.decide(context, random);
      if (choice.kind === 'message' && context.dayIndex >= armWeekStart && context.dayIndex < armWeekEnd) {
        const action = arms.findIndex((arm) => arm.category === choice.arm.category && arm.framing === choice.arm.framing);
        counts[context.persona][action]! += 1;
      }
      return choice;
    },
    ...(policy.learn === undefined ? {} : { learn: policy.learn.bind(policy) }),
    ...(policy.endDay === undefined ? {} : { endDay: policy.endDay.bind(policy) }),
  };
}

export function runPolicyResults(options: {
  patients: number;
  days: number;
  seed: number;
  startDay?: number;
  settings?: Partial<PersonalisedSettings>;
  onProgress?: (patientDaysDone: number, totalPatientDays: number) => void;
}): PolicyResults {
  const { patients, days, seed } = options;
  // 2025-01-01, the CLI's default start; the day only sets weekdays.
  const startDay = options.startDay ?? 20_089;
  const perRun = patients * days;
  const progress = (offset: number) => (done: number) => options.onProgress?.(offset + done, 2 * perRun);

  const fixed = simulateCohort({ patientCount: patients, days, seed, startDay, policy: createFixedDailyPolicy(), onProgress: progress(0) });
  const counts = {} as Record<Persona, Float64Array>;
  for (const persona of personas) counts[persona] = new Float64Array(armCount);
  const personalisedPolicy = countingArms(createPersonalisedPolicy({ settings: options.settings }), counts);
  const personalised = simulateCohort({
    patientCount: patients,
    days,
    seed,
    startDay,
    policy: personalisedPolicy,
    onProgress: progress(perRun),
  });

  const truth = truthBestArms();
  const armResults = personas.map((persona): PersonaArmResult => {
    const personaCounts = counts[persona];
    let total = 0;
    let best = -1;
    for (let arm = 0; arm < armCount; arm += 1) {
      total += personaCounts[arm]!;
      if (personaCounts[arm]! > (best < 0 ? 0 : personaCounts[best]!)) best = arm;
    }
    const mostChosenArm = best < 0 ? null : best + 1;
    return {
      persona,
      mostChosenArm,
      category: best < 0 ? null : arms[best]!.category,
      framing: best < 0 ? null : arms[best]!.framing,
      share: best < 0 ? 0 : personaCounts[best]! / total,
      truthBestArms: truth[persona],
      matches: mostChosenArm !== null && truth[persona].includes(mostChosenArm),
    };
  });
  const fixedDaily = outcome(fixed);
  const personalisedOutcome = outcome(personalised);
  const matchingPersonas = armResults.filter((result) => result.matches).length;
  return {
    patients,
    days,
    seed,
    startDay,
    fixedDaily,
    personalised: personalisedOutcome,
    armWeek: { startDayIndex: armWeekStart, endDayIndex: armWeekEnd },
    arms: armResults,
    targets: {
      adherence: personalisedOutcome.shareAdherent >= fixedDaily.shareAdherent,
      messages: personalisedOutcome.messagesPerPatient <= fixedDaily.messagesPerPatient / 2,
      matchingPersonas,
      armsMatch: matchingPersonas >= 5,
    },
  };
}
