/**
 * The send path (docs/decisions/019-send-path.md): channel adapters (WhatsApp Cloud API, Twilio SMS, the
 * local channel) and the use cases behind the job kinds 'message-send', 'service-reply' and
 * 'outbound-message-failed'. Server-only.
 */
export type {
  ChannelAdapter,
  ChannelAdapters,
  ChannelProvider,
  OutboundContent,
  ProviderAcceptance,
  WhatsAppContent,
} from './server/channel-adapter';
export { ChannelSendError, isChannelSendError } from './server/channel-send-error';
export type { ResolveTemplate } from './server/compose-message';
export { createChannelAdapters, describeChannels, twilioStatusCallbackPath } from './server/create-channel-adapters';
export { createLocalSmsAdapter, createLocalWhatsAppAdapter } from './server/local-channel-adapters';
export {
  createMessageSendingJobHandlers,
  registerMessageSendingJobs,
  type MessageSendingJobOptions,
} from './server/register-message-sending-jobs';
export { sendDecisionMessage, sendExpiryMs } from './server/send-decision-message';
export { sendFallbackSms } from './server/send-fallback-sms';
export {
  type FreeFormWhatsApp,
  type PatientMessageOutcome,
  sendPatientMessage,
  type WhatsAppTemplateAlternative,
} from './server/send-patient-message';
export { sendServiceReply } from './server/send-service-reply';
export { createTwilioSmsAdapter } from './server/twilio-sms-adapter';
export { createWhatsAppCloudAdapter, whatsAppGraphVersion, whatsAppRequestBody } from './server/whatsapp-cloud-adapter';
export {
  messageSendPayloadSchema,
  outboundMessageFailedPayloadSchema,
  serviceReplyPayloadSchema,
  type ResolvedTemplate,
  type SendOutcome,
  type ServiceReplyPayload,
} from './schemas';
