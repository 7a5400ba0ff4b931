/**
 * WhatsApp's customer-service window: for 24 hours after the patient's last message to us, any message
 * may be sent (free-form text, interactive buttons); outside it, only an approved template. A message
 * that cannot go on WhatsApp falls back to SMS when the patient consented to SMS (the send path's call).
 */
import type { TemplateApprovalStatus } from './template-library';

export const customerServiceWindowMs = 24 * 60 * 60 * 1000;
/**
 * A free-form message decided near the end of the window may reach Meta after it closes and be
 * refused (error 131047); within this margin of the end we use a template instead.
 */
export const defaultWindowSafetyMarginMs = 5 * 60 * 1000;

export type WhatsAppSendDecision =
  /** Inside the window: free-form or interactive (a template would also be accepted). */
  | { form: 'free-form'; windowClosesAt: number }
  /** Outside the window, with an approved template. */
  | { form: 'template'; reason: 'no-inbound-message' | 'window-closed' | 'window-closing' }
  /** Nothing may be sent on WhatsApp now. */
  | {
      form: 'none';
      reason: 'no-template' | 'template-not-approved';
      approval: TemplateApprovalStatus | null;
      windowEndsAt: number | null;
    };

export function decideWhatsAppForm(options: {
  now: number;
  /** When the patient last wrote to us on WhatsApp (any inbound message); null if never. */
  lastInboundAt: number | null;
  /** The template for this message, if the library has one. */
  template: { approval: TemplateApprovalStatus } | null;
  safetyMarginMs?: number;
}): WhatsAppSendDecision {
  const { now, lastInboundAt, template } = options;
  const margin = options.safetyMarginMs ?? defaultWindowSafetyMarginMs;
  // A timestamp ahead of our clock (provider clock skew) counts as now.
  const windowClosesAt = lastInboundAt === null ? null : Math.min(lastInboundAt, now) + customerServiceWindowMs;
  if (windowClosesAt !== null && now + margin < windowClosesAt) return { form: 'free-form', windowClosesAt };
  if (template === null) return { form: 'none', reason: 'no-template', approval: null, windowEndsAt: windowClosesAt };
  if (template.approval !== 'approved')
    return { form: 'none', reason: 'template-not-approved', approval: template.approval, windowEndsAt: windowClosesAt };
  const reason = windowClosesAt === null ? 'no-inbound-message' : now < windowClosesAt ? 'window-closing' : 'window-closed';
  return { form: 'template', reason };
}
