/**
 * The daily messaging loop (docs/decisions/018-daily-loop.md): enrolment in a programme, the day's policy
 * decisions and their send jobs ('message-send', carried out by the channels), the hourly 'messaging-plan'
 * tick and the rewards. Server-only.
 */
export { fillDecisionRewards } from './server/fill-decision-rewards';
export { defaultPlanningMinute, planMessagingDay, type PlanMessagingDayResult } from './server/plan-messaging-day';
export { enqueueMessagingTick, ensureMessagingTick, messagingTickKey, runMessagingTick } from './server/run-messaging-tick';
export { notAllowedMessage, setMessagingProgramme, unknownPatientMessage } from './server/set-messaging-programme';
export { messagingProgrammeChangeSchema, type MessagingEnrolmentDto } from './schemas';
