/**
 * How long operational records are kept before the nightly prune removes them (docs/decisions/037). Browser-safe:
 * the message data collection page states these same figures, so what it says is what the prune does.
 * Clinical records (patients, regimens, dispensings, dose events, messages, consent, policy decisions and
 * states, trial records) are not pruned: they are the patient's record and the audit trail of every decision.
 */
export const retentionDays = {
  /** Background jobs that succeeded: their progress and result are only shown while someone follows them. */
  succeededJobs: 30,
  /** Failed jobs stay longer, for the investigation of why they failed. */
  failedJobs: 90,
  /** The webhook event log (idempotency keys and delivery details); providers retry for days, not months. */
  webhookEvents: 180,
} as const;
