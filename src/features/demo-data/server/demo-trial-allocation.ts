/**
 * Trial cohort A's screening and randomisation at the end of the demo history: every synthetic patient is
 * assessed on the trial's start date against the system-checked criteria; the eligible, in a seeded random
 * order, are enrolled until the target is reached (the rest excluded: target reached); each enrolment takes
 * the next place of its persona stratum's concealed allocation sequence — the live enrolment's own function
 * (src/engine/trial/allocation-sequence.ts), with the trial row's seed and block sizes, so a clinician
 * enrolling into the demo trial later continues the same sequences.
 */
import 'server-only';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { MessageChannel } from '@/engine/policy/message-arms';
import type { SimulatedPatient } from '@/engine/simulation/records';
import { allocationSequence } from '@/engine/trial/allocation-sequence';
import type { TrialArm } from '@/engine/trial/allocation-sequence';
import { eligibilityCriteria, onTreatmentWindowDays } from '@/features/trials';

/** Block sizes of cohort A's sequences (two, so the last places of a block cannot be guessed). */
export const demoTrialBlockSizes = [4, 6] as const;

/** Languages the messages are written in ('reads-supported-language'). */
const supportedLanguages = new Set(['en', 'es']);

type CriterionId = (typeof eligibilityCriteria)[number]['id'];

export type DemoTrialScreening = {
  /** Patient index in the cohort. */
  patient: number;
  /** The checklist as answered (protocol.ts criterion ids): the clinician's part only for those who pass the system's. */
  eligibility: Partial<Record<CriterionId, boolean>>;
  outcome: 'enrolled' | 'excluded';
  exclusionReason: 'not-eligible' | 'other' | null;
  exclusionDetail: string | null;
};

export type DemoTrialEnrolment = {
  patient: number;
  arm: TrialArm;
  stratum: string;
  /** 0-based place in the stratum's sequence. */
  stratumPosition: number;
  block: number;
};

export type DemoTrialAllocation = {
  screenings: DemoTrialScreening[];
  /** In enrolment order. */
  enrolments: DemoTrialEnrolment[];
  /** Arm by patient index. */
  arms: Map<number, TrialArm>;
};

/** What is known of the cohort when its history ends. */
export type DemoHistory = {
  patients: readonly SimulatedPatient[];
  optedOutChannels: ReadonlyMap<number, ReadonlySet<MessageChannel>>;
  suppliedUntilDay: readonly number[];
  lastTakenDay: readonly number[];
};

export function allocateDemoTrial(options: {
  history: DemoHistory;
  trialSize: number;
  seed: number;
  trialStartDay: number;
}): DemoTrialAllocation {
  const { history, trialStartDay } = options;
  const assessed = history.patients.map((patient, index) => {
    const optedOut = history.optedOutChannels.get(index);
    const eligibility: Partial<Record<CriterionId, boolean>> = {
      // Supply covering one of the last 30 days, or a dose confirmed taken in them (as the live check reads the records).
      'on-treatment':
        (history.suppliedUntilDay[index] ?? -Infinity) > trialStartDay - onTreatmentWindowDays ||
        (history.lastTakenDay[index] ?? -Infinity) >= trialStartDay - onTreatmentWindowDays,
      // The consent ledger the seed writes: reminders on each consented channel not withdrawn by a STOP.
      'reminder-consent': (['sms', 'whatsapp'] as const).some((channel) => patient.consent[channel] && !(optedOut?.has(channel) ?? false)),
      'no-opt-out': optedOut === undefined,
      'not-in-another-trial': true,
    };
    if (Object.values(eligibility).every(Boolean)) {
      eligibility.adult = Number.parseInt(patient.ageBand, 10) >= 18;
      eligibility['reads-supported-language'] = supportedLanguages.has(patient.language.split('-')[0] ?? '');
    }
    return { patient, index, eligibility };
  });
  const eligible = assessed.filter(({ eligibility }) => eligibility.adult === true && eligibility['reads-supported-language'] === true);
  // Enrolment order: the eligible in a seeded random order (the same shuffle as before the live sequence).
  const order = xoroshiro128plus(options.seed);
  for (let position = eligible.length - 1; position > 0; position -= 1) {
    const other = uniformInt(order, 0, position);
    [eligible[position], eligible[other]] = [eligible[other]!, eligible[position]!];
  }
  const enrolled = eligible.slice(0, options.trialSize);
  // Synthetic: each enrolled patient's informed consent is taken as recorded at enrolment.
  for (const { eligibility } of enrolled) eligibility['informed-consent'] = true;

  const byStratum = new Map<string, number[]>();
  for (const { patient, index } of enrolled) {
    const members = byStratum.get(patient.persona) ?? [];
    members.push(index);
    byStratum.set(patient.persona, members);
  }
  const placeOf = new Map<number, { arm: TrialArm; stratumPosition: number; block: number }>();
  for (const [stratum, members] of byStratum) {
    const sequence = allocationSequence({ seed: options.seed, stratum, blockSizes: demoTrialBlockSizes, length: members.length });
    members.forEach((patient, stratumPosition) => placeOf.set(patient, { ...sequence[stratumPosition]!, stratumPosition }));
  }
  const enrolments = enrolled.map(({ patient, index }) => ({ patient: index, stratum: patient.persona, ...placeOf.get(index)! }));
  const enrolledSet = new Set(enrolments.map((enrolment) => enrolment.patient));

  const screenings = assessed.map(({ index, eligibility }): DemoTrialScreening => {
    if (enrolledSet.has(index)) return { patient: index, eligibility, outcome: 'enrolled', exclusionReason: null, exclusionDetail: null };
    const unmet = eligibilityCriteria.filter((criterion) => eligibility[criterion.id] === false);
    if (unmet.length > 0)
      return {
        patient: index,
        eligibility,
        outcome: 'excluded',
        exclusionReason: 'not-eligible',
        exclusionDetail: `Not met: ${unmet.map((criterion) => criterion.text).join('; ')}`,
      };
    return { patient: index, eligibility, outcome: 'excluded', exclusionReason: 'other', exclusionDetail: 'target enrolment reached' };
  });
  return { screenings, enrolments, arms: new Map(enrolments.map((enrolment) => [enrolment.patient, enrolment.arm])) };
}
