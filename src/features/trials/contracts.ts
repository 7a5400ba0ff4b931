/**
 * What the trial pages receive (browser-safe types only): the server use cases of src/features/trials
 * return these, the components render them. Never carries the randomisation seed, the block sizes or a
 * block number (allocation concealment), and never a name: patients appear by pseudonym.
 */
import type { TrialAnalysis } from '@/engine/statistics/trial';
import type { MessagingProgramme } from '@/lib/domain/messaging-programmes';

export type TrialArm = 'control' | 'intervention';
export const trialArms = ['control', 'intervention'] as const satisfies readonly TrialArm[];

/**
 * set-up: no one enrolled yet (the analysis plan may still change); recruiting: enrolment open;
 * follow-up: recruitment closed (target reached or closing date passed), someone still inside their weeks;
 * complete: recruitment closed and every participant's follow-up over (or ended by withdrawal or loss).
 */
export type TrialStatus = 'set-up' | 'recruiting' | 'follow-up' | 'complete';

export type EligibilityCriterion = {
  id: string;
  text: string;
  /** system: the server checks it from the records; clinician: the enrolling clinician confirms it. */
  checkedBy: 'system' | 'clinician';
};

export type TrialProtocol = {
  id: string;
  name: string;
  synthetic: boolean;
  status: TrialStatus;
  objective: string;
  population: string;
  eligibility: EligibilityCriterion[];
  arms: Record<TrialArm, { label: string; description: string }>;
  /** The programme the intervention arm receives now ('personalised' since the learning policy landed). */
  interventionProgramme: MessagingProgramme;
  /** Follow-up of each participant, from their enrolment date. */
  weeks: number;
  startDate: string;
  primaryEndpoint: string;
  secondaryEndpoints: string[];
  allocation: { ratio: string; method: string; stratifiedBy: string };
  analysisPlan: { text: string; sha256: string | null; frozen: boolean };
  targetEnrolment: number | null;
  recruitmentClosedOn: string | null;
  /** The last day of follow-up of the last participant (null before anyone is enrolled). */
  followUpEndsOn: string | null;
};

export type ConsortArmCounts = {
  allocated: number;
  received: number;
  notReceived: number;
  lostToFollowUp: number;
  discontinued: number;
  withdrawn: number;
  analysed: number;
  excludedFromAnalysis: number;
};

export type ConsortCounts = {
  assessed: number;
  excluded: { total: number; notEligible: number; declined: number; other: number };
  randomised: number;
  arms: Record<TrialArm, ConsortArmCounts>;
};

export type TrialOverview = { protocol: TrialProtocol; consort: ConsortCounts; asOf: string };

export type ParticipantStatus = 'in-follow-up' | 'completed' | 'withdrawn' | 'lost-to-follow-up' | 'discontinued';

/** A participant as clinicians and admins see them (their own organisation's, or all for admins). */
export type TrialParticipant = {
  patientId: string;
  pseudonym: string;
  arm: TrialArm;
  enrolledOn: string;
  followUpEndsOn: string;
  status: ParticipantStatus;
};

/** A patient a clinician may assess: the system's checks already answered. */
export type TrialCandidate = {
  patientId: string;
  pseudonym: string;
  systemChecks: { criterionId: string; met: boolean }[];
};

export type TrialExitKind = 'withdrawn' | 'lost-to-follow-up' | 'discontinued';
export type TrialExclusionReason = 'not-eligible' | 'declined' | 'other';

/** What a patient sees of their own participation. */
export type TrialParticipation =
  { enrolled: false } | { enrolled: true; arm: TrialArm; enrolledOn: string; followUpEndsOn: string; status: ParticipantStatus };

export type WeeklyArmAdherence = { week: number; arm: TrialArm; participants: number; mean: number; ciLow: number; ciHigh: number };

export type BaselineRow = {
  /** What the row describes, e.g. "Age 65–74" or "Baseline adherence, mean (SD)". */
  label: string;
  values: Record<TrialArm, string>;
};

export type SecondaryEndpointResult = {
  name: string;
  /** Per arm, written out (e.g. "0.81 (0.77 to 0.84)"); what it measures is in `definition`. */
  values: Record<TrialArm, string>;
  difference: string | null;
  definition: string;
};

export type TrialResults =
  | {
      state: 'blinded';
      /** While the trial runs: accrual by week and figures pooled over both arms only. */
      accrual: { weekStarting: string; cumulative: number }[];
      pooled: { participants: number; meanAdherence: number | null; period: { from: string; to: string } };
    }
  | {
      state: 'unblinded';
      /** The participants' follow-up weeks 1–12 (each from their own enrolment) and who is analysed. */
      period: { from: string; to: string };
      population: string;
      analysis: TrialAnalysis;
      baseline: BaselineRow[];
      weekly: WeeklyArmAdherence[];
      secondary: SecondaryEndpointResult[];
    };
