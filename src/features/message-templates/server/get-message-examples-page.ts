import 'server-only';
import type { Database } from '@/db/client';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import { findTemplate, type TemplateLanguage } from '@/engine/messaging';
import { personas } from '@/engine/simulation/personas';
import { renderSurveyInvitation, surveyInvitationTemplates, type SurveyInvitationTemplate } from '@/engine/surveys';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { SessionUser } from '@/lib/server/session';
import type { LibraryEntry, TemplatePreview, TemplateVersionDto } from '../schemas';
import { findTopTemplatesByPersona, type TopTemplatesByPersona } from './find-top-templates-by-persona';
import { listTemplateLibrary } from './list-template-library';
import { listTemplateVersions } from './list-template-versions';
import { previewTemplate } from './template-preview';

export type LibraryCard = LibraryEntry & { category: string; framing: string; variant: number; preview: TemplatePreview };

export type MessageExamplesPage = {
  language: TemplateLanguage;
  cards: LibraryCard[];
  /** The simulator's personas, so each is listed even when nobody of it received a message. */
  personas: readonly string[];
  topByPersona: TopTemplatesByPersona;
  canEdit: boolean;
  /**
   * The survey invitation (decision 056) and its reminder (decision 065), English as the surveys are, each shown for
   * an example survey with its own approval: only approved does it open a survey outside the WhatsApp window (the
   * reminder falls back to the invitation until then). Empty in other languages.
   */
  surveyInvitations: LibraryCard[];
  /** Admins only: the template opened for editing, with its history. */
  editing: { card: LibraryCard; versions: TemplateVersionDto[] } | null;
  /** Why `?edit=` was not opened (unknown template); null otherwise. */
  editProblem: string | null;
};

/**
 * /algorithms/patient-engagement/persona-based-message-examples: the library in one language rendered as
 * the patient sees it, which templates each persona received most, and for admins the edit form and history.
 */
export async function getMessageExamplesPage(options: {
  database: Database;
  actor: SessionUser | null;
  language: TemplateLanguage;
  choice?: PeriodChoice;
  editTemplateId?: string | null;
  now: Date;
}): Promise<MessageExamplesPage> {
  const { database, actor, language } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const [library, topByPersona] = await Promise.all([
    listTemplateLibrary({ database, language }),
    findTopTemplatesByPersona({ database, actor, choice: options.choice, now: options.now }),
  ]);
  const cards = library.flatMap((entry): LibraryCard[] => {
    const engineTemplate = findTemplate(entry.templateId, language);
    if (engineTemplate === undefined) return [];
    const { category, framing } = engineTemplate.arm;
    return [{ ...entry, category, framing, variant: engineTemplate.variant, preview: previewTemplate(entry) }];
  });
  const surveyInvitations = surveyInvitationTemplates.flatMap((template) => {
    const entry = library.find((candidate) => candidate.templateId === template.id);
    return entry === undefined ? [] : [invitationCard(entry, template)];
  });
  const canEdit = hasPermission(actor.role, 'message-templates:edit');
  let editing: MessageExamplesPage['editing'] = null;
  let editProblem: string | null = null;
  if (canEdit && options.editTemplateId) {
    const card = [...cards, ...surveyInvitations].find((candidate) => candidate.templateId === options.editTemplateId);
    if (card === undefined) editProblem = `edit: the library has no template ${options.editTemplateId} in ${language}.`;
    else editing = { card, versions: await listTemplateVersions({ database, templateId: card.templateId, language }) };
  }
  return { language, cards, surveyInvitations, personas, topByPersona, canEdit, editing, editProblem };
}

/**
 * The invitation or its reminder as a patient would get it for an example survey of five questions (no SMS form: SMS
 * sends the questions).
 */
function invitationCard(entry: LibraryEntry, template: SurveyInvitationTemplate): LibraryCard {
  let preview: TemplatePreview;
  try {
    const rendered = renderSurveyInvitation({
      template,
      body: entry.body,
      surveyTitle: 'Lifestyle',
      questionCount: 5,
      reference: 'example',
    });
    preview = { whatsApp: { text: rendered.text, buttons: rendered.buttons.map((button) => button.title) }, sms: null, problem: null };
  } catch (error) {
    preview = { whatsApp: null, sms: null, problem: error instanceof Error ? error.message : 'It cannot be rendered.' };
  }
  // The framing names which of the two it is: 'invitation' or 'invitation-reminder'.
  return { ...entry, category: 'survey', framing: template.id.slice('survey.'.length), variant: 1, preview };
}
