/**
 * Where a trial stands (TrialStatus in contracts.ts), from its enrolments and recruitment rules. Pure and
 * browser-safe. Days are day numbers (days since 1970-01-01); `today` is the trial's calendar day.
 */
import type { TrialStatus } from './contracts';

export type TrialStatusParticipant = {
  enrolledOn: number;
  /** The day the participant left the trial (withdrawn or lost to follow-up), if they did: their follow-up ends then. */
  exitedOn: number | null;
};

export function trialStatus(options: {
  participants: readonly TrialStatusParticipant[];
  weeks: number;
  targetEnrolment: number | null;
  recruitmentClosedOn: number | null;
  today: number;
}): TrialStatus {
  const { participants, today } = options;
  if (participants.length === 0) return 'set-up';
  const closed =
    (options.targetEnrolment !== null && participants.length >= options.targetEnrolment) ||
    (options.recruitmentClosedOn !== null && today >= options.recruitmentClosedOn);
  if (!closed) return 'recruiting';
  // Follow-up is days [enrolledOn, enrolledOn + 7·weeks): over once today is past its last day.
  const stillFollowed = participants.some(
    (participant) => participant.exitedOn === null && today < participant.enrolledOn + 7 * options.weeks,
  );
  return stillFollowed ? 'follow-up' : 'complete';
}
