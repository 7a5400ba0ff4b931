/**
 * The trial's protocol facts and shared definitions (browser-safe: the page, the server use cases and the
 * outcome analysis all read them from here, so the eligibility list, the follow-up window and the analysis
 * plan cannot differ between what is shown and what is enforced). A trial row's `protocol` jsonb may
 * override the texts; the rules (criteria ids, follow-up arithmetic, status) are fixed here.
 */
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence';
import type { MessagingProgramme } from '@/lib/domain/messaging-programmes';
import type { EligibilityCriterion, ParticipantStatus, TrialArm, TrialExclusionReason, TrialExitKind, TrialStatus } from './contracts';

/** Follow-up of each participant, from their enrolment day. */
export const trialFollowUpWeeks = 12;
/** On treatment at enrolment: a dispensing covering one of this many days up to and including the enrolment day. */
export const onTreatmentWindowDays = 30;
/** Adherent: primary outcome at or above this. */
export const adherentThreshold = 0.8;
/** A gap: this many consecutive days without a confirmed dose (secondary endpoint, censored at 7 × weeks). */
export const gapDays = 7;
/** The stratum of a patient without a persona. */
export const unknownStratum = 'unknown';
/** The programme the intervention arm receives. */
export const interventionProgramme: MessagingProgramme = 'personalised';

export const trialExitKindValues = ['withdrawn', 'lost-to-follow-up', 'discontinued'] as const satisfies readonly TrialExitKind[];
export const trialExclusionReasonValues = ['not-eligible', 'declined', 'other'] as const satisfies readonly TrialExclusionReason[];

export const systemCriterionIds = ['on-treatment', 'reminder-consent', 'no-opt-out', 'not-in-another-trial'] as const;
export type SystemCriterionId = (typeof systemCriterionIds)[number];
export const clinicianCriterionIds = ['adult', 'reads-supported-language', 'informed-consent'] as const;
export type ClinicianCriterionId = (typeof clinicianCriterionIds)[number];

export const eligibilityCriteria: readonly (EligibilityCriterion & { id: SystemCriterionId | ClinicianCriterionId })[] = [
  {
    id: 'on-treatment',
    text: `On treatment at enrolment: a dispensing covering at least one of the last ${onTreatmentWindowDays} days, or a regimen active on the day`,
    checkedBy: 'system',
  },
  { id: 'reminder-consent', text: 'Has consented to medication reminders by SMS or WhatsApp (consent ledger)', checkedBy: 'system' },
  { id: 'no-opt-out', text: 'Has not replied STOP or opted out of reminders on any channel', checkedBy: 'system' },
  { id: 'not-in-another-trial', text: 'Not taking part in another trial that is not complete', checkedBy: 'system' },
  { id: 'adult', text: 'Aged 18 or over', checkedBy: 'clinician' },
  { id: 'reads-supported-language', text: 'Able to read messages in a supported language (English or Spanish)', checkedBy: 'clinician' },
  { id: 'informed-consent', text: 'Has given informed consent to take part, recorded by the enrolling clinician', checkedBy: 'clinician' },
];

export const defaultObjective =
  'To find out whether personalised reminder messages chosen by the learning policy raise dose-level medication adherence over 12 weeks, compared with the standard messaging programme.';
export const defaultPopulation =
  'Adults on long-term medication who receive reminders by SMS or WhatsApp, assessed by their clinician and enrolled one at a time.';
export const defaultArms: Record<TrialArm, { label: string; description: string }> = {
  control: {
    label: 'Control: standard programme',
    description: 'The patient’s messaging programme is left as it was at enrolment (usual care).',
  },
  intervention: {
    label: 'Intervention: personalised messages',
    description:
      'The patient’s messaging programme is set to “Personalised (learning policy)”: the learning policy chooses each day whether, when and what to send. The previous programme is restored on withdrawal.',
  },
};
export const defaultPrimaryEndpoint =
  'Dose-level adherence over weeks 1–12 of each participant’s follow-up: confirmed-taken doses ÷ scheduled doses (regimens active each day × doses a day), a dose without a confirmation counted as not taken.';
export const defaultSecondaryEndpoints: readonly string[] = [
  `Share of participants adherent (primary outcome ≥ ${adherentThreshold})`,
  'Refill-based proportion of days covered (PDC) over the 12 weeks',
  `Time to the first ${gapDays} consecutive days without a confirmed dose (days, censored at ${7 * trialFollowUpWeeks})`,
  'Reply rate: inbound ÷ outbound messages over the 12 weeks',
];
export const defaultAllocation = {
  ratio: '1:1',
  method: 'Stratified permuted blocks of varying, concealed size; the arm is revealed only after the enrolment is saved',
  stratifiedBy: 'Persona (patients without one form their own stratum)',
};

export const defaultAnalysisPlan = [
  'Population: intention to treat — every randomised participant is analysed in the arm allocated, whatever they received; a dose without a confirmation counts as not taken, so no outcome is missing.',
  'Primary endpoint: dose-level adherence over weeks 1–12 (confirmed ÷ scheduled doses). Difference in means, intervention − control, with Welch’s 95% confidence interval and two-sided p-value; supported by ANCOVA (ordinary least squares of outcome on arm and baseline adherence over the 12 weeks before enrolment).',
  `Binary endpoint: adherent (primary outcome ≥ ${adherentThreshold}). Risk difference with the Newcombe hybrid score 95% CI; risk ratio with Katz log-scale CI; odds ratio with Woolf’s CI; Fisher’s exact test (two-sided) and Pearson’s χ² without continuity correction.`,
  'Secondary endpoints: refill-based PDC over the 12 weeks, time to the first 7-day gap, reply rate — each summarised by arm with 95% CIs.',
  'Significance level α = 0.05, two-sided. No interim comparisons: the arms are revealed only when the trial is complete; until then only accrual and pooled figures are shown.',
].join('\n');

/** The protocol texts a trial row's `protocol` jsonb may override. */
export type ProtocolFacts = {
  objective: string;
  population: string;
  arms: Record<TrialArm, { label: string; description: string }>;
  primaryEndpoint: string;
  secondaryEndpoints: string[];
  allocation: { ratio: string; method: string; stratifiedBy: string };
  /** The jsonb's target, when the column has none (the demo seed writes it there). */
  targetEnrolment: number | null;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOr = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);
const armOr = (value: unknown, fallback: { label: string; description: string }) =>
  isRecord(value) ? { label: textOr(value.label, fallback.label), description: textOr(value.description, fallback.description) } : fallback;

/**
 * The trial row's `protocol` jsonb merged over the defaults, field by field: a field of the wrong shape is
 * ignored rather than shown half-read. Only the named texts are read, so nothing else in the jsonb (a seed,
 * say) can reach a page.
 */
export function mergeProtocolFacts(stored: unknown): ProtocolFacts {
  const raw = isRecord(stored) ? stored : {};
  const arms = isRecord(raw.arms) ? raw.arms : {};
  const allocation = isRecord(raw.allocation) ? raw.allocation : {};
  const secondary =
    Array.isArray(raw.secondaryEndpoints) && raw.secondaryEndpoints.every((item) => typeof item === 'string' && item !== '')
      ? (raw.secondaryEndpoints as string[])
      : [...defaultSecondaryEndpoints];
  const target = raw.targetEnrolment;
  return {
    objective: textOr(raw.objective, defaultObjective),
    population: textOr(raw.population, defaultPopulation),
    arms: { control: armOr(arms.control, defaultArms.control), intervention: armOr(arms.intervention, defaultArms.intervention) },
    primaryEndpoint: textOr(raw.primaryEndpoint, defaultPrimaryEndpoint),
    secondaryEndpoints: secondary,
    allocation: {
      ratio: textOr(allocation.ratio, defaultAllocation.ratio),
      method: textOr(allocation.method, defaultAllocation.method),
      stratifiedBy: textOr(allocation.stratifiedBy, defaultAllocation.stratifiedBy),
    },
    targetEnrolment: typeof target === 'number' && Number.isInteger(target) && target > 0 ? target : null,
  };
}

export function addDaysIso(isoDate: string, days: number): string {
  return isoFromDayNumber(dayNumberFromIso(isoDate) + days);
}

/** The UTC calendar day of an instant: enrolment and exit dates are days, as the records' dates are. */
export function isoDayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The last day of a participant's follow-up: days [enrolledOn, enrolledOn + 7·weeks) are followed. */
export function followUpEndsOn(enrolledOn: string, weeks: number): string {
  return addDaysIso(enrolledOn, 7 * weeks - 1);
}

export type ParticipantRecord = {
  enrolledOn: string;
  withdrawnOn: string | null;
  lostToFollowUpOn: string | null;
  discontinuedOn: string | null;
};

/** Where a participant stands on `today`: ended by withdrawal or loss, over, or still followed (discontinued or not). */
export function participantStatusOf(record: ParticipantRecord, weeks: number, today: string): ParticipantStatus {
  if (record.withdrawnOn !== null) return 'withdrawn';
  if (record.lostToFollowUpOn !== null) return 'lost-to-follow-up';
  if (followUpEndsOn(record.enrolledOn, weeks) < today) return 'completed';
  return record.discontinuedOn !== null ? 'discontinued' : 'in-follow-up';
}

/** Recruitment is closed once the target is reached or the closing date has come, whichever is first. */
export function isRecruitmentClosed(options: {
  enrolments: number;
  targetEnrolment: number | null;
  recruitmentClosedOn: string | null;
  today: string;
}): boolean {
  return (
    (options.targetEnrolment !== null && options.enrolments >= options.targetEnrolment) ||
    (options.recruitmentClosedOn !== null && options.recruitmentClosedOn <= options.today)
  );
}

/**
 * TrialStatus (contracts.ts): set-up until someone is enrolled (a trial closed before anyone enrolled stays
 * there: nobody to follow, and its plan may still change); then recruiting until recruitment closes; then
 * follow-up while anyone is still followed, complete when nobody is.
 */
export function trialStatusOf(options: {
  enrolments: number;
  targetEnrolment: number | null;
  recruitmentClosedOn: string | null;
  today: string;
  /** Participants still inside their follow-up (not withdrawn, not lost, follow-up not over). */
  stillFollowed: number;
}): TrialStatus {
  if (options.enrolments === 0) return 'set-up';
  if (!isRecruitmentClosed(options)) return 'recruiting';
  return options.stillFollowed === 0 ? 'complete' : 'follow-up';
}
