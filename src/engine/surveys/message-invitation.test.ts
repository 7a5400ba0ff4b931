import { describe, expect, it } from 'vitest';
import { MAX_ADAPTIVE_QUESTIONS } from './inference';
import { parseSurveyPayload } from './message-delivery';
import {
  checkSurveyInvitationBody,
  findSurveyInvitationTemplate,
  invitationQuestionCount,
  maxQuickReplyTitleLength,
  parseSurveyInvitationPayload,
  renderSurveyInvitation,
  surveyInvitationPayload,
  surveyInvitationReminderTemplate,
  surveyInvitationTemplate,
  surveyInvitationTemplates,
} from './message-invitation';
import type { SurveyDefinition } from './types';

const choice = (id: string) => ({
  kind: 'choice' as const,
  id,
  text: `${id}?`,
  options: [
    { value: 'yes', label: 'Yes', likelihoods: { a: 0.9, b: 0.2 } },
    { value: 'no', label: 'No', likelihoods: { a: 0.1, b: 0.8 } },
  ],
});
const definition = (order: 'fixed' | 'adaptive', count: number) =>
  ({
    key: 'test',
    title: 'Test survey',
    description: '',
    order,
    questions: Array.from({ length: count }, (_, index) => choice(`q${index + 1}`)),
  }) as unknown as SurveyDefinition;

describe('the survey invitation template', () => {
  it('is a utility template whose body neither starts nor ends with a parameter, with short button texts', () => {
    expect(surveyInvitationTemplate.category).toBe('utility');
    expect(surveyInvitationTemplate.name).toMatch(/^[a-z0-9_]+$/);
    expect(surveyInvitationTemplate.body.trim()).not.toMatch(/^\{\{|\}\}$/);
    expect(surveyInvitationTemplate.buttons.map((button) => button.title)).toEqual(['Start', 'Not now']);
    for (const button of surveyInvitationTemplate.buttons) expect(button.title.length).toBeLessThanOrEqual(maxQuickReplyTitleLength);
    expect(checkSurveyInvitationBody(surveyInvitationTemplate.body)).toEqual([]);
  });

  it('finds what Meta or the renderer would refuse in an edited body', () => {
    expect(checkSurveyInvitationBody('Your {{medicine}} survey, please.')).toEqual([
      'Unknown placeholder {{medicine}}: an invitation may use {{survey}} and {{questions}}.',
    ]);
    expect(checkSurveyInvitationBody('{{survey}} has {{questions}}')).toHaveLength(2);
    expect(checkSurveyInvitationBody('A survey: {{survey}}{{questions}} questions.')).toEqual([
      'Two placeholders are side by side; put words between them.',
    ]);
    expect(checkSurveyInvitationBody('A survey } for you.')).toEqual(['The body has a stray brace.']);
    expect(checkSurveyInvitationBody('  ')).toEqual(['The body is empty.']);
  });

  it('renders the survey title and question count as named parameters, and payloads naming the invitation', () => {
    const rendered = renderSurveyInvitation({ surveyTitle: 'Sleep\nand  stress', questionCount: 4, reference: 'chunk-1' });
    expect(rendered.parameters).toEqual([
      { name: 'survey', text: 'Sleep and stress' },
      { name: 'questions', text: '4' },
    ]);
    expect(rendered.text).toContain('"Sleep and stress": at most 4 questions');
    expect(rendered.buttons).toEqual([
      { title: 'Start', payload: 'survey:chunk-1:start' },
      { title: 'Not now', payload: 'survey:chunk-1:not-now' },
    ]);
    expect(() => renderSurveyInvitation({ body: 'Hello {{name}}, welcome.', surveyTitle: 'x', questionCount: 1, reference: 'r' })).toThrow(
      /\{\{name\}\}/,
    );
  });

  it('reads only its own payloads back, and an answer payload is never read as an invitation tap (nor the reverse)', () => {
    expect(parseSurveyInvitationPayload(surveyInvitationPayload('abc', 'start'))).toEqual({ reference: 'abc', action: 'start' });
    expect(parseSurveyInvitationPayload('survey:abc:not-now')).toEqual({ reference: 'abc', action: 'not-now' });
    expect(parseSurveyInvitationPayload('survey:abc:q1:yes')).toBeNull();
    expect(parseSurveyInvitationPayload('survey:abc:later')).toBeNull();
    expect(parseSurveyInvitationPayload('dose.taken')).toBeNull();
    expect(parseSurveyPayload('survey:abc:start')).toBeNull();
  });

  it('has a reminder template of its own: the same parameters, quick replies and category, with reminder wording (decision 065)', () => {
    const reminder = surveyInvitationReminderTemplate;
    expect(reminder).toMatchObject({ id: 'survey.invitation-reminder', name: 'medaptive_survey_invitation_reminder', language: 'en' });
    expect(reminder.category).toBe('utility');
    expect(reminder.name).toMatch(/^[a-z0-9_]+$/);
    expect(reminder.name).not.toBe(surveyInvitationTemplate.name);
    expect(reminder.body).toMatch(/^A reminder:/);
    expect(reminder.body).not.toBe(surveyInvitationTemplate.body);
    expect(reminder.parameters).toEqual(surveyInvitationTemplate.parameters);
    expect(reminder.buttons).toEqual(surveyInvitationTemplate.buttons);
    expect(checkSurveyInvitationBody(reminder.body, reminder)).toEqual([]);
    expect(checkSurveyInvitationBody('A reminder about {{medicine}}.', reminder)).toEqual([
      'Unknown placeholder {{medicine}}: an invitation may use {{survey}} and {{questions}}.',
    ]);
    expect(surveyInvitationTemplates.map((template) => template.id)).toEqual(['survey.invitation', 'survey.invitation-reminder']);
    expect(findSurveyInvitationTemplate('survey.invitation-reminder')).toBe(reminder);
    expect(findSurveyInvitationTemplate('reminder.gain.1')).toBeUndefined();
  });

  it('renders the reminder with its own wording and the invitation’s payloads, which read back as the invitation’s taps', () => {
    const rendered = renderSurveyInvitation({
      template: surveyInvitationReminderTemplate,
      surveyTitle: 'Sleep',
      questionCount: 3,
      reference: 'chunk-2',
    });
    expect(rendered.text).toBe(
      'A reminder: your care team would still like you to answer a short survey, "Sleep": at most 3 questions, answered with a tap or a number. Tap Start to begin, or Not now to skip it.',
    );
    expect(rendered.parameters).toEqual([
      { name: 'survey', text: 'Sleep' },
      { name: 'questions', text: '3' },
    ]);
    expect(rendered.buttons).toEqual([
      { title: 'Start', payload: 'survey:chunk-2:start' },
      { title: 'Not now', payload: 'survey:chunk-2:not-now' },
    ]);
    expect(rendered.buttons.map((button) => parseSurveyInvitationPayload(button.payload))).toEqual([
      { reference: 'chunk-2', action: 'start' },
      { reference: 'chunk-2', action: 'not-now' },
    ]);
    // An edited stored body is what is rendered.
    expect(
      renderSurveyInvitation({
        template: surveyInvitationReminderTemplate,
        body: 'Still waiting: "{{survey}}", {{questions}} questions.',
        surveyTitle: 'Sleep',
        questionCount: 2,
        reference: 'r',
      }).text,
    ).toBe('Still waiting: "Sleep", 2 questions.');
  });

  it('promises a fixed survey’s unanswered questions, and an adaptive one’s within the question limit', () => {
    expect(invitationQuestionCount(definition('fixed', 7), {})).toBe(7);
    expect(invitationQuestionCount(definition('fixed', 7), { q1: 'yes', q2: 'no' })).toBe(5);
    expect(invitationQuestionCount(definition('adaptive', 9), {})).toBe(MAX_ADAPTIVE_QUESTIONS);
    expect(invitationQuestionCount(definition('adaptive', 9), { q1: 'yes' })).toBe(MAX_ADAPTIVE_QUESTIONS - 1);
    expect(invitationQuestionCount(definition('adaptive', 3), {})).toBe(3);
    // Answers the record gave are not questions asked (decision 068): still up to 5 to come.
    expect(invitationQuestionCount(definition('adaptive', 9), { q1: 'yes', q2: 'no' }, ['q1', 'q2'])).toBe(MAX_ADAPTIVE_QUESTIONS);
    expect(invitationQuestionCount(definition('adaptive', 9), { q1: 'yes', q2: 'no' }, ['q1'])).toBe(MAX_ADAPTIVE_QUESTIONS - 1);
  });
});
