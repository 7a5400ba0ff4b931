/**
 * The contract between a messaging policy and whoever asks it for decisions: the simulator and the live
 * scheduler both depend on this module, so a policy runs unchanged in either. Once a day
 * per patient the policy sees the context of the decision and returns a choice — no message, or one
 * category × framing at a time of day — together with the probability with which it made that choice
 * (its propensity), so that off-policy estimators (IPS, SNIPS, doubly robust; DESIGN.md §3) can evaluate
 * other policies on its logs. A learning policy also receives feedback once the day's outcome is known.
 * The patient vocabulary (personas, age bands, conditions) is the simulator's; it is imported as types only.
 */
import type { Condition } from '@/engine/simulation/conditions';
import type { MessageArm, MessageChannel } from './message-arms';
import type { AgeBand, Persona } from '@/engine/simulation/personas';
import type { DoseObserver, Sex } from '@/engine/simulation/records';

/** What is known about the patient and does not change from day to day. */
export type PatientFeatures = {
  ageBand: AgeBand;
  sex: Sex;
  conditions: readonly Condition[];
  productCount: number;
  preferredChannel: MessageChannel;
  doseObserver: DoseObserver;
};

/** What the product can observe about recent days (never the simulation's hidden truth). */
export type RecentHistory = {
  /** Scheduled dose events in the previous 7 days. */
  dosesScheduledLast7Days: number;
  /** Of those, how many were confirmed taken by the app, a WhatsApp reply or the smart bottle. */
  dosesConfirmedLast7Days: number;
  /** Days since the patient last replied to a message; null if never. */
  daysSinceLastReply: number | null;
  /** Fewest days of supply left across the patient's products, assuming every dose since each fill was taken. */
  estimatedDaysOfSupplyLeft: number;
};

export type MessageCounts = {
  /** Outbound messages in the previous 7 and 28 days, and since the start. */
  last7Days: number;
  last28Days: number;
  total: number;
  /** Replies in the previous 28 days. */
  repliesLast28Days: number;
};

/** What the patient's survey answers say about their persona (issue 17, docs/decisions/047). */
export type SurveyPersona = {
  /** P(persona | answers) for every persona, summing to 1: the latest posterior stored for the patient. */
  posterior: Readonly<Record<Persona, number>>;
  /** Persona-informative answers behind it. */
  answers: number;
  /** When it was last updated (ISO instant). */
  updatedAt: string;
};

export type DecisionContext = {
  patientId: string;
  persona: Persona;
  /**
   * The persona posterior from the patient's surveys; absent when they have answered none that carries
   * persona information (and in the simulator, whose patients answer no surveys while it runs).
   */
  surveyPersona?: SurveyPersona;
  features: PatientFeatures;
  day: number;
  /** Days since the simulation (or the patient's programme) started. */
  dayIndex: number;
  /** 0 = Sunday. */
  weekday: number;
  /** When the decision is made (local minutes after midnight); the message may be timed later that day. */
  minuteOfDay: number;
  /** The patient's usual time for the first dose today. */
  firstDoseMinute: number;
  recentHistory: RecentHistory;
  messageCounts: MessageCounts;
};

/**
 * `armProbabilities`, when the policy randomises over several actions: every action's probability at
 * this decision (index 0 = no message, 1 + armIndex(category, framing) = that arm), logged for off-policy
 * evaluation; `propensity` is the chosen action's entry.
 */
export type PolicyChoice =
  | { kind: 'no-message'; propensity: number; armProbabilities?: readonly number[] }
  | { kind: 'message'; arm: MessageArm; minuteOfDay: number; propensity: number; armProbabilities?: readonly number[] };

export type DecisionOutcome = {
  dosesScheduled: number;
  /** Simulation truth: doses actually taken that day. */
  dosesTaken: number;
  /** What the product saw: doses confirmed that day. */
  dosesConfirmed: number;
  /** Whether the message was delivered; null when no message was sent. */
  delivered: boolean | null;
  replied: boolean;
  optedOut: boolean;
};

export type PolicyFeedback = {
  context: DecisionContext;
  choice: PolicyChoice;
  /**
   * Share of the day's scheduled doses taken (simulation truth; 0 when none were scheduled). For evaluation
   * only: a policy must not learn from it, because the product never sees it.
   */
  reward: number;
  /** What the product observed, as `observedReward` (personalised/observed-reward.ts) scores it: what a policy learns from. */
  observedReward: number;
  outcome: DecisionOutcome;
};

/** Draws uniform numbers in [0, 1) from a stream the simulator seeds per patient. */
export type RandomSource = () => number;

export type MessagingPolicy = {
  readonly name: string;
  readonly version: string;
  decide(context: DecisionContext, random: RandomSource): PolicyChoice;
  learn?(feedback: PolicyFeedback): void;
  /** Called once every patient's day `dayIndex` is over (simulator: after each simulated day; live: nightly): the batch update. */
  endDay?(dayIndex: number): void;
};
