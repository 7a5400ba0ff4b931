/**
 * The messaging engine's public surface: the template library and its rendering (WhatsApp and SMS),
 * reading replies and STOP/START/HELP keywords, and the sending rules (quiet hours, WhatsApp's 24-hour
 * window, frequency caps). Pure: the send path, webhooks and the consent ledger live in features.
 */
export {
  formatDaysLeft,
  formatDoseTime,
  placeholderNames,
  templateLanguages,
  type PlaceholderName,
  type TemplateLanguage,
  type TemplateValues,
} from './template-fields';
export {
  checkTemplateBody,
  findTemplate,
  placeholdersIn,
  templateApprovalStatuses,
  templateFor,
  templateLibrary,
  whatsAppCategories,
  whatsAppCategoryByMessageCategory,
  whatsAppTemplateName,
  type MessageTemplate,
  type TemplateApprovalStatus,
  type TemplateBodyProblem,
  type WhatsAppCategory,
} from './template-library';
export {
  buttonPayload,
  parseButtonPayload,
  quickReplyButtons,
  replyActions,
  smsReplyFooter,
  smsReplyKeywords,
  type QuickReplyButton,
  type ReplyAction,
  type SmsReplyKeyword,
} from './reply-options';
export {
  defaultSmsMaxSegments,
  renderBody,
  renderParameters,
  renderSms,
  renderWhatsApp,
  SmsTooLongError,
  TemplateRenderError,
  type RenderedSms,
  type RenderedWhatsApp,
  type SmsRenderOptions,
  type TemplateRenderProblem,
} from './render-template';
export { isGsm7, measureSms, toGsm7WherePossible, type SmsEncoding, type SmsLength } from './sms-encoding';
export {
  classifyReply,
  doseStatusOf,
  missReasons,
  type InboundReply,
  type MissReason,
  type ReplyClassification,
  type DoseReplyIntent,
} from './reply-classifier';
export { keywordLists, keywordReplies, matchKeyword, type KeywordAction, type KeywordMatch } from './keywords';
export { interpretInbound, type InboundInterpretation } from './interpret-inbound';
export { firstInstantAtLocalTime, localClockAt, type LocalClock } from './local-clock';
export { defaultQuietHours, isQuietMinute, nextAllowedSendTime, planSendTime, type PlannedSend, type QuietHours } from './quiet-hours';
export { customerServiceWindowMs, decideWhatsAppForm, defaultWindowSafetyMarginMs, type WhatsAppSendDecision } from './whatsapp-window';
export { checkFrequencyCap, defaultFrequencyCaps, type FrequencyCap, type FrequencyCapCheck } from './frequency-cap';
