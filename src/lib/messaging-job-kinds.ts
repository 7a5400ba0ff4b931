/**
 * The job kinds through which the messaging features hand work to each other (decision 006: features meet in
 * jobs, not in each other's internals). One definition each, so a renamed kind cannot leave a handler behind.
 */
/** The daily loop (messaging-loop): { patientIds?, devSendNow? }; hourly, and /dev/phone's "send now". */
export const messagingPlanJobKind = 'messaging-plan';
/** Send one planned decision's message (message-sending): { decisionId }. */
export const messageSendJobKind = 'message-send';
/** The service's answer to HELP, STOP or START (message-sending): { patientId, channel, body, replyToMessageId?, kind }. */
export const serviceReplyJobKind = 'service-reply';
/** A WhatsApp message a status webhook reported failed (message-sending sends the SMS fallback): { messageId }. */
export const outboundMessageFailedJobKind = 'outbound-message-failed';
/** An inbound message a webhook recorded (message-replies acts on it): { messageId }. */
export const inboundMessageJobKind = 'inbound-message-received';
/** Send a survey's next questions, or the one clarification of a chunk (surveys): { responseId, clarifyChunkId? }. */
export const surveyMessageSendJobKind = 'survey-message-send';
