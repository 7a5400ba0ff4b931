/**
 * The live messaging programmes a patient can be enrolled in (browser-safe; src/db/schema.ts uses it for
 * `patients.messaging_programme`). A patient with no programme gets no live messages; `none` is an explicit
 * enrolment in usual care (decisions are still logged, as the trial's control arm needs). The learning
 * `personalised` is the learning policy (engine/policy), deciding from the latest stored policy state.
 */
export const messagingProgrammes = ['none', 'fixed-daily', 'fixed-weekly', 'personalised'] as const;
export type MessagingProgramme = (typeof messagingProgrammes)[number];

/** What a screen calls each programme (the /dev/phone form and the patient profile). */
export const messagingProgrammeLabels: Record<MessagingProgramme, string> = {
  none: 'Usual care (no messages)',
  'fixed-daily': 'Fixed daily reminder',
  'fixed-weekly': 'Fixed weekly check-in',
  personalised: 'Personalised (learning policy)',
};

/** Where a policy decision was made: the live daily loop, or the simulator writing the demo history. */
export const policyDecisionSources = ['live', 'simulation'] as const;
export type PolicyDecisionSource = (typeof policyDecisionSources)[number];

/**
 * What became of a decision: planned (a send is scheduled), sent (a message went out), not-sent (refused at
 * send time: no consent, no number, capped, quiet hours, provider refused; the reason says which), or
 * no-message (the policy chose none).
 */
export const policyDecisionStatuses = ['planned', 'sent', 'not-sent', 'no-message'] as const;
export type PolicyDecisionStatus = (typeof policyDecisionStatuses)[number];

/**
 * A decision's reward is filled at the first hourly tick after its local day ends; for a week after the
 * decision, to leave room for a long outage. Older decisions never get one, so the nightly policy update must not
 * wait for them. One constant for both, so the two cannot drift.
 */
export const decisionRewardWindowDays = 7;
