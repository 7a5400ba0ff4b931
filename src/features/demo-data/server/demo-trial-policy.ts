/**
 * The messaging of the demo cohort across its history and trial cohort A's 12 weeks, as one policy for
 * one simulator run: before the trial everyone has their demo programme (demo-programme-policy.ts); from
 * the trial's first day each participant has their arm's policy — control: the standard programme,
 * unchanged; intervention: the personalised learning policy, from its prior, learning from the
 * intervention arm's days in a batch at the end of each day (as the nightly update does live).
 *
 * Who takes part is only known once the history is over (eligibility looks at supply and STOP replies as
 * of its last day), so the allocation is asked for when the cohort's last day of history ends. Patients
 * outside the trial get no messages from then on: the demo keeps no records of theirs after the history.
 */
import 'server-only';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createPersonalisedPolicy, createPolicyState } from '@/engine/policy/personalised';
import type { TrialArm } from '@/engine/trial/allocation-sequence';
import { createDemoProgrammePolicy } from './demo-programme-policy';

export type DemoTrialPolicy = MessagingPolicy & {
  endDay(dayIndex: number): void;
  /** The personalised policy's version: its prior's (1) plus one per daily update. */
  personalisedVersion(): string;
};

export function createDemoTrialPolicy(options: {
  /** Day index of the trial's first day (the history's length). */
  trialStartDayIndex: number;
  /** Called once, when the last day of history is over: each participant's arm by patient id. */
  allocate: () => ReadonlyMap<string, TrialArm>;
}): DemoTrialPolicy {
  const { trialStartDayIndex } = options;
  const programmes = createDemoProgrammePolicy();
  const personalised = createPersonalisedPolicy({ state: createPolicyState() });
  let arms: ReadonlyMap<string, TrialArm> | null = null;
  const armOf = (patientId: string): TrialArm | undefined => {
    if (arms === null) throw new Error('The demo trial was asked for a trial-day decision before its allocation');
    return arms.get(patientId);
  };
  return {
    name: 'demo-trial',
    version: '1',
    decide: (context, random) => {
      if (context.dayIndex < trialStartDayIndex) return programmes.decide(context, random);
      const arm = armOf(context.patientId);
      if (arm === 'intervention') return personalised.decide(context, random);
      if (arm === 'control') return programmes.decide(context, random);
      return { kind: 'no-message', propensity: 1 };
    },
    learn: (feedback) => {
      if (feedback.context.dayIndex >= trialStartDayIndex && armOf(feedback.context.patientId) === 'intervention')
        personalised.learn?.(feedback);
    },
    endDay: (dayIndex) => {
      if (dayIndex === trialStartDayIndex - 1) arms = options.allocate();
      else if (dayIndex >= trialStartDayIndex) personalised.endDay(dayIndex);
    },
    personalisedVersion: () => personalised.version,
  };
}
