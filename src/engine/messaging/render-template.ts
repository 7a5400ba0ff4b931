/**
 * Filling a template for a patient. Rendering refuses — a TemplateRenderError naming every placeholder it
 * could not fill — rather than send "Your {{medicine}} is due" or an empty gap to a patient.
 */
import { formatPlaceholder, isPlaceholderName, type TemplateValues } from './template-fields';
import { placeholdersIn, type MessageTemplate } from './template-library';
import { buttonPayload, smsReplyFooter } from './reply-options';
import { measureSms, toGsm7WherePossible, type SmsLength } from './sms-encoding';

export type TemplateRenderProblem = {
  placeholder: string;
  problem: 'missing-value' | 'invalid-value' | 'unknown-placeholder';
  detail: string;
};

export class TemplateRenderError extends Error {
  readonly templateId: string;
  readonly language: string;
  readonly problems: readonly TemplateRenderProblem[];

  constructor(template: Pick<MessageTemplate, 'id' | 'language'>, problems: readonly TemplateRenderProblem[]) {
    super(
      `Template ${template.id} (${template.language}) cannot be rendered: ${problems
        .map(({ placeholder, detail }) => `{{${placeholder}}}: ${detail}`)
        .join('; ')}.`,
    );
    this.name = 'TemplateRenderError';
    this.templateId = template.id;
    this.language = template.language;
    this.problems = problems;
  }
}

export type RenderedParameter = { name: string; text: string };

/** Each placeholder's text, in order of first use; throws TemplateRenderError listing every one that cannot be filled. */
export function renderParameters(template: Pick<MessageTemplate, 'id' | 'language' | 'body'>, values: TemplateValues): RenderedParameter[] {
  const parameters: RenderedParameter[] = [];
  const problems: TemplateRenderProblem[] = [];
  for (const name of placeholdersIn(template.body)) {
    if (!isPlaceholderName(name)) {
      problems.push({ placeholder: name, problem: 'unknown-placeholder', detail: 'not a field the template may use' });
      continue;
    }
    const formatted = formatPlaceholder(name, values, template.language);
    if (formatted.ok) parameters.push({ name, text: formatted.text });
    else problems.push({ placeholder: name, problem: formatted.problem, detail: formatted.detail });
  }
  if (problems.length > 0) throw new TemplateRenderError(template, problems);
  return parameters;
}

/** The body as the patient reads it. */
export function renderBody(template: Pick<MessageTemplate, 'id' | 'language' | 'body'>, values: TemplateValues): string {
  const parameters = new Map(renderParameters(template, values).map(({ name, text }) => [name, text]));
  return template.body.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, name: string) => parameters.get(name) ?? '');
}

export type RenderedWhatsApp = {
  /** What the patient sees, for the message store and the /dev/phone preview. */
  text: string;
  /** For a template message (outside the customer-service window): Meta's name, language and named parameters. */
  template: { name: string; language: string; parameters: readonly RenderedParameter[] };
  /** Quick-reply buttons in order; the payload carries the reference so a tap finds its message and dose. */
  buttons: readonly { title: string; payload: string }[];
};

export function renderWhatsApp(template: MessageTemplate, values: TemplateValues, options: { reference?: string } = {}): RenderedWhatsApp {
  const parameters = renderParameters(template, values);
  return {
    text: renderBody(template, values),
    template: { name: template.whatsApp.name, language: template.whatsApp.language, parameters },
    buttons: template.buttons.map(({ action, title }) => ({ title, payload: buttonPayload(action, options.reference) })),
  };
}

export type SmsRenderOptions = {
  /** Names the service at the start of every SMS (the patient's phone shows only a number). */
  senderLabel?: string;
  /** Refuse texts longer than this many segments (each is billed). */
  maxSegments?: number;
  /** Replace accents and typography outside GSM-7 (á → a) so Spanish costs GSM-7 segments, as Twilio's smart encoding does. */
  smartEncoding?: boolean;
};

export const defaultSmsMaxSegments = 4;

export class SmsTooLongError extends Error {
  readonly templateId: string;
  readonly length: SmsLength;

  constructor(templateId: string, length: SmsLength, maxSegments: number) {
    super(
      `SMS for template ${templateId} needs ${length.segments} segments (${length.encoding}, ${length.units} units); at most ${maxSegments} allowed.`,
    );
    this.name = 'SmsTooLongError';
    this.templateId = templateId;
    this.length = length;
  }
}

export type RenderedSms = { text: string; length: SmsLength };

/** Sender label, body, then the reply keywords and STOP; throws SmsTooLongError over the segment limit. */
export function renderSms(template: MessageTemplate, values: TemplateValues, options: SmsRenderOptions = {}): RenderedSms {
  const label = options.senderLabel ?? 'Medaptive';
  const maxSegments = options.maxSegments ?? defaultSmsMaxSegments;
  const composed = `${label === '' ? '' : `${label}: `}${renderBody(template, values)}\n${smsReplyFooter(template.language)}`;
  const text = options.smartEncoding === true ? toGsm7WherePossible(composed) : composed;
  const length = measureSms(text);
  if (length.segments > maxSegments) throw new SmsTooLongError(template.id, length, maxSegments);
  return { text, length };
}
