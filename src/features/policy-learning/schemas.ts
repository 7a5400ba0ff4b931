/**
 * What the learning policy's pages and jobs exchange (browser-safe: types and constants only, no server code).
 */
import type { PosteriorSummary } from '@/engine/policy/personalised';
import type { TargetPolicyEvaluation } from '@/engine/statistics/off-policy';

/** The nightly update of the live policy (helper jobs: payload {}). */
export const policyUpdateJobKind = 'policy-update';

/** The version of the personalised policy the daily loop decides with, and what it has learned from. */
export type PolicyVersionDto = {
  version: number;
  /** ISO 8601. */
  createdAt: string;
  /** Rewarded live decisions learned from, over every version up to this one. */
  decisionsUsed: number;
  /** ISO 8601: decided_at of the latest decision learned from; null for the prior. */
  trainedThrough: string | null;
};

/** One stored version with its beliefs: each arm's advantage over no message, per persona (95% credible). */
export type PolicyStateSummaryDto = PolicyVersionDto & {
  /** Where it was learned: the live loop, or a simulation. */
  source: 'live' | 'simulation';
  posterior: PosteriorSummary;
};

/** listPolicyStates returns at most this many versions (each state carries per-patient posteriors). */
export const maximumPolicyStatesListed = 100;

/** Bounds of the off-policy estimates over the live log (each decision keeps one sample per target policy). */
export const liveEstimateLimits = { defaultDays: 28, maximumDays: 365, defaultDecisions: 50_000, maximumDecisions: 200_000 } as const;

/**
 * What each policy would have earned per decision (mean observed reward) on the patient-days the personalised
 * policy decided live in the period, estimated off-policy from its logged propensities.
 */
export type LivePolicyValuesDto = {
  /** ISO 8601: decisions decided in [from, until). */
  period: { from: string; until: string };
  /** Rewarded decisions used (sent messages and policy "none"; the newest, up to the bound). */
  decisions: number;
  /** Rewarded decisions whose context or arm the estimators cannot read. */
  decisionsSkipped: number;
  patients: number;
  /** The personalised policy's own mean observed reward on these decisions (its on-policy value). */
  loggedMeanReward: number;
  targets: ({ policy: string; version: string } & TargetPolicyEvaluation)[];
};
