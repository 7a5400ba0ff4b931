import type { Interval } from '@/engine/statistics/trial';
import type { ParticipantStatus, TrialArm, TrialExclusionReason, TrialExitKind, TrialStatus } from '../contracts';
import { formatDecimal } from '@/lib/format';

/** A two-sided p-value as journals print it: "p = 0.046", or "p < 0.001" (a rounded 0.000 would claim certainty). */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return 'p not defined';
  return p < 0.001 ? 'p < 0.001' : `p = ${formatDecimal(p, 3)}`;
}

/** An estimate with its 95% interval: "0.052 (95% CI 0.021 to 0.083)"; null (undefined for the data) says so. */
export function formatInterval(interval: Interval | null, decimals = 3): string {
  if (interval === null) return 'not defined (an arm has no events)';
  return `${formatDecimal(interval.estimate, decimals)} (95% CI ${formatDecimal(interval.ciLow, decimals)} to ${formatDecimal(interval.ciHigh, decimals)})`;
}

export const trialStatusLabels: Record<TrialStatus, string> = {
  'set-up': 'Being set up: no one enrolled yet',
  recruiting: 'Recruiting',
  'follow-up': 'Recruitment closed, participants in follow-up',
  complete: 'Complete: recruitment closed and every participant’s follow-up over',
};

export const participantStatusLabels: Record<ParticipantStatus, string> = {
  'in-follow-up': 'In follow-up',
  completed: 'Completed follow-up',
  withdrawn: 'Withdrew',
  'lost-to-follow-up': 'Lost to follow-up',
  discontinued: 'Discontinued the intervention',
};

export const exitKindLabels: Record<TrialExitKind, string> = {
  withdrawn: 'Withdrawal',
  'lost-to-follow-up': 'Loss to follow-up',
  discontinued: 'Discontinuation of the intervention',
};

export const exclusionReasonLabels: Record<TrialExclusionReason, string> = {
  'not-eligible': 'Not eligible',
  declined: 'Declined to participate',
  other: 'Other reason',
};

/** Arm names in a fixed order, intervention first as CONSORT draws it. */
export const armOrder: readonly TrialArm[] = ['intervention', 'control'];
