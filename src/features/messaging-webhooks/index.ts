/**
 * Inbound webhooks of the messaging channels (WhatsApp Cloud API, Twilio): signature checks, exactly-once
 * recording of delivery statuses and inbound messages. The send path and /dev/phone build on these.
 */
export {
  digitsOf,
  mediaReceivedBody,
  twilioInboundEvent,
  twilioStatusEvent,
  whatsAppInboundEvent,
  whatsAppStatusEvent,
  type InboundEvent,
  type StatusEvent,
  type WebhookEvent,
  type WebhookProvider,
} from './webhook-events';
export { maximumWebhookBodyBytes } from './schemas';
export { adoptEarlyStatuses, recordWebhookEvents, type RecordedInbound, type WebhookRecording } from './server/record-webhook-events';
export { receiveWhatsAppWebhook, type WebhookReceipt } from './server/receive-whatsapp-webhook';
export { receiveTwilioWebhook, type TwilioWebhookKind } from './server/receive-twilio-webhook';
export { verifyWhatsAppSubscription } from './server/verify-whatsapp-subscription';
export {
  loadTwilioWebhookSettings,
  loadWhatsAppWebhookSettings,
  localWebhookSecret,
  twilioWebhookSettingsOf,
  webhookNotConfigured,
  whatsAppWebhookSettingsOf,
  type TwilioWebhookSettings,
  type WhatsAppWebhookSettings,
} from './server/webhook-settings';
export { handleTwilioWebhook } from './server/twilio-route';
// /dev/phone (the local channel's phone; development and tests only).
export { listPhonePatients } from './server/list-phone-patients';
export { getPhoneView } from './server/get-phone-view';
export { sendPhoneReply } from './server/send-phone-reply';
export { requestMessageNow } from './server/request-message-now';
export type { PhoneMessageDto, PhonePatientDto, PhoneReplyInput, PhoneThreadDto, PhoneViewDto } from './phone-schemas';
export { giveTestNumber } from './server/give-test-number';
export { createTestPatient } from './server/create-test-patient';
export { recordLocalOutbound } from './server/record-local-outbound';
