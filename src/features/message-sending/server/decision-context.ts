import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { policyDecisions } from '@/db/schema';
import { SmsTooLongError, TemplateRenderError } from '@/engine/messaging';
import type { ConsentPurpose } from '@/lib/domain/consent';
import { assertMessagingConsent, MessagingConsentMissingError } from '@/features/consent';
import { asEngineTemplate, type ComposedMessage, composeMessage, type ResolveTemplate, resolveTemplateForPatient } from './compose-message';
import { findPatientContact, type PatientContact, templateValuesOf } from './outbound-messages';
import type { ResolvedTemplate } from '../schemas';

/**
 * Reminders, refills and check-ins concern the patient's own doses (consent purpose 'reminders');
 * education and encouragement are general content ('education'), as the template library's WhatsApp
 * categories (utility / marketing) also say.
 */
const purposeByCategory: Readonly<Record<string, ConsentPurpose>> = {
  reminder: 'reminders',
  refill: 'reminders',
  'check-in': 'reminders',
  education: 'education',
  encouragement: 'education',
};

export function consentPurposeOf(category: string | null): ConsentPurpose | null {
  return category === null ? null : (purposeByCategory[category] ?? null);
}

export const decisionColumns = {
  id: policyDecisions.id,
  patientId: policyDecisions.patientId,
  status: policyDecisions.status,
  action: policyDecisions.action,
  category: policyDecisions.category,
  framing: policyDecisions.framing,
  templateId: policyDecisions.templateId,
  localDate: policyDecisions.localDate,
  scheduledFor: policyDecisions.scheduledFor,
};

export type DecisionRow = { [Key in keyof typeof decisionColumns]: (typeof decisionColumns)[Key]['_']['data'] | null } & {
  id: string;
  patientId: string;
  status: string;
  localDate: string;
};

export async function loadDecision(database: Database, decisionId: string): Promise<DecisionRow | null> {
  const [row] = await database.select(decisionColumns).from(policyDecisions).where(eq(policyDecisions.id, decisionId));
  return row ?? null;
}

/** Whether the patient has a current opt-in for this channel and purpose at `now`. */
export async function hasConsent(options: {
  database: Database;
  patientId: string;
  channel: 'whatsapp' | 'sms';
  purpose: ConsentPurpose;
  now: Date;
}): Promise<boolean> {
  try {
    await assertMessagingConsent({
      database: options.database,
      patientId: options.patientId,
      channel: options.channel,
      purpose: options.purpose,
      at: options.now,
    });
    return true;
  } catch (error) {
    if (error instanceof MessagingConsentMissingError) return false;
    throw error;
  }
}

export type PreparedDecision =
  | {
      ok: true;
      contact: PatientContact & { phoneNumber: string };
      template: ResolvedTemplate;
      composed: ComposedMessage;
      purpose: ConsentPurpose;
    }
  | { ok: false; reason: 'no-patient' | 'no-number' | 'no-template' | 'no-purpose' | 'template-values-missing' | 'sms-too-long' };

/** Everything a decision's message needs before any channel is tried: the number, the template, every rendered form. */
export async function prepareDecisionMessage(options: {
  database: Database;
  decision: DecisionRow;
  resolveTemplate: ResolveTemplate;
  senderLabel: string;
  language?: string;
}): Promise<PreparedDecision> {
  const { database, decision } = options;
  const contact = await findPatientContact(database, decision.patientId);
  if (contact === null) return { ok: false, reason: 'no-patient' };
  if (contact.phoneNumber === null) return { ok: false, reason: 'no-number' };
  const purpose = consentPurposeOf(decision.category);
  if (purpose === null) return { ok: false, reason: 'no-purpose' };
  if (decision.templateId === null) return { ok: false, reason: 'no-template' };
  const template = await resolveTemplateForPatient({
    database,
    resolveTemplate: options.resolveTemplate,
    templateId: decision.templateId,
    language: options.language ?? contact.language,
  });
  const engineTemplate = template === null ? null : asEngineTemplate(template);
  if (template === null || engineTemplate === null) return { ok: false, reason: 'no-template' };
  const values = await templateValuesOf(database, decision.patientId, decision.localDate);
  try {
    const composed = composeMessage(engineTemplate, values, { reference: decision.id, senderLabel: options.senderLabel });
    return { ok: true, contact: { ...contact, phoneNumber: contact.phoneNumber }, template, composed, purpose };
  } catch (error) {
    if (error instanceof TemplateRenderError) return { ok: false, reason: 'template-values-missing' };
    if (error instanceof SmsTooLongError) return { ok: false, reason: 'sms-too-long' };
    throw error;
  }
}
