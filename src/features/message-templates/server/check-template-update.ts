import 'server-only';
import {
  checkTemplateBody,
  defaultSmsMaxSegments,
  findTemplate,
  renderSms,
  SmsTooLongError,
  type MessageTemplate,
  type TemplateLanguage,
  type TemplateValues,
} from '@/engine/messaging';
import { maxMedicineLength } from '@/engine/messaging/template-fields';
import { checkSurveyInvitationBody, findSurveyInvitationTemplate } from '@/engine/surveys';

/**
 * The longest values the send path can put in a body: a medicine name at the engine's limit, a two-digit
 * hour, a 90-day supply. A body that fits the SMS limit with these fits with any patient's record.
 */
const longestValues: TemplateValues = { medicine: 'M'.repeat(maxMedicineLength), doseMinute: 12 * 60 + 59, daysOfSupplyLeft: 90 };

/**
 * What is wrong with a body for the engine, as one line for the form's body field; null when it is fine.
 * Checks what WhatsApp's review refuses (unknown placeholders, one at either end, stray braces, length)
 * and that the SMS rendering with the longest values stays within the engine's segment limit.
 */
export function problemWithBody(options: { templateId: string; language: TemplateLanguage; body: string }): string | null {
  // The survey invitation and its reminder have placeholders of their own and no SMS form (decisions 056, 065).
  const invitation = findSurveyInvitationTemplate(options.templateId);
  if (invitation !== undefined) {
    const invitationProblems = checkSurveyInvitationBody(options.body, invitation);
    return invitationProblems.length > 0 ? invitationProblems.join(' ') : null;
  }
  const problems = checkTemplateBody(options.body).map(({ problem }) => problem);
  if (problems.length > 0) return problems.join(' ');
  const engineTemplate = findTemplate(options.templateId, options.language);
  if (engineTemplate === undefined) return null; // the caller refuses unknown templates
  const edited: MessageTemplate = { ...engineTemplate, body: options.body };
  try {
    // Smart encoding, as Twilio sends (accents outside GSM-7 replaced), so Spanish is measured as sent.
    renderSms(edited, longestValues, { smartEncoding: true });
  } catch (error) {
    if (error instanceof SmsTooLongError)
      return `As an SMS with the longest medicine name this needs ${error.length.segments} segments; at most ${defaultSmsMaxSegments} are allowed. Shorten it.`;
    throw error;
  }
  return null;
}
