/**
 * What the personalised message flow page receives (docs/decisions/025-message-flow-page.md). Shared by the
 * server and the browser (the React Flow diagram is a client component), so it imports no server code.
 */
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';

/** The live decision log's window the counts cover, ending when the page is rendered. */
export const flowPeriodDays = 28;

/** The steps of the pipeline, in order; each edge joins a step to the next (update feeds the posterior again). */
export const flowSteps = [
  'patient-data',
  'context',
  'posterior',
  'probabilities',
  'choice',
  'message',
  'reply',
  'reward',
  'update',
] as const;
export type FlowStep = (typeof flowSteps)[number];

export const flowStepLabels: Record<FlowStep, string> = {
  'patient-data': 'Patient data',
  context: 'Context',
  posterior: 'Posterior',
  probabilities: 'Probabilities',
  choice: 'Choice',
  message: 'Message',
  reply: 'Reply',
  reward: 'Reward',
  update: 'Update',
};

/** One edge of the diagram and one row of its text alternative: what passed from one step to the next. */
export type FlowEdge = {
  id: string;
  from: FlowStep;
  to: FlowStep;
  /** What is counted, e.g. "decisions made (one context each)". */
  what: string;
  /** The same in a word or two, for the diagram's edge label ("decisions"). */
  short: string;
  count: ShownCount;
};

export type PolicyVersionDto = {
  version: string;
  createdAt: string;
  /** Rewarded decisions learned from, in all versions up to this one. */
  decisionsUsed: number;
  /** decided_at of the latest decision it learned from; null for the prior. */
  trainedThrough: string | null;
};

export type TracedProbability = { action: number; label: string; probability: number; chosen: boolean };

/** One live decision from the patient's data to the update that learned from it. */
export type TracedDecision = {
  pseudonym: string;
  synthetic: boolean;
  localDate: string;
  decidedAt: string;
  policyVersion: string;
  /** The context the policy saw, flattened to named values (the patient's internal id left out). */
  context: { name: string; value: string }[];
  /** Every action's probability at decision time; null when the decision did not log them. */
  probabilities: TracedProbability[] | null;
  choice: { label: string; propensity: number };
  status: string;
  statusReason: string | null;
  message: {
    channel: string;
    templateId: string | null;
    templateLanguage: string | null;
    templateVersion: number | null;
    body: string | null;
    status: string;
    sentAt: string;
  } | null;
  reply: { channel: string; receivedAt: string; text: string | null; reading: string | null } | null;
  /** Share of the day's scheduled doses confirmed; null until the day is over or when none was scheduled. */
  reward: number | null;
  rewardedAt: string | null;
  /** The first policy version that learned from this decision; null while no update has. */
  learnedIn: string | null;
};

export type MessageFlowPage = {
  status: 'ok';
  periodStart: string;
  periodEnd: string;
  periodDays: number;
  /** Who the counts are about. */
  scope: 'organisation' | 'companies' | 'all';
  suppressed: boolean;
  /** Patients of the scope enrolled in the personalised programme now. */
  enrolled: ShownCount;
  /** Of them (or formerly enrolled), those with a live personalised decision in the period. */
  patientsDecided: ShownCount;
  edges: FlowEdge[];
  /** The posterior in use: the latest stored version (the same for every viewer: it holds no patient's data). */
  latestVersion: PolicyVersionDto | null;
  versionsInPeriod: number;
  /**
   * The latest live personalised decision the viewer may see traced; 'none-yet' when no live personalised
   * decision exists in scope; 'not-shown' when decisions exist but the viewer may see individuals only as
   * synthetic demo data and none is synthetic.
   */
  trace: { status: 'traced'; decision: TracedDecision } | { status: 'none-yet' } | { status: 'not-shown' };
};

export type MessageFlowResult = MessageFlowPage | { status: 'no-company' };
