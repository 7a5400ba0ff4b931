/**
 * What the learning policy's pages and jobs exchange (browser-safe: types and constants only, no server code).
 */
import type { PosteriorSummary } from '@/engine/policy/personalised';

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
