import { describe, expect, it } from 'vitest';
import { MAX_ADAPTIVE_QUESTIONS } from './inference';
import { parseSurveyPayload } from './message-delivery';
import {
  checkSurveyInvitationBody,
  invitationQuestionCount,
  maxQuickReplyTitleLength,
  parseSurveyInvitationPayload,
  renderSurveyInvitation,
  surveyInvitationPayload,
  surveyInvitationTemplate,
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

  it('promises a fixed survey’s unanswered questions, and an adaptive one’s within the question limit', () => {
    expect(invitationQuestionCount(definition('fixed', 7), {})).toBe(7);
    expect(invitationQuestionCount(definition('fixed', 7), { q1: 'yes', q2: 'no' })).toBe(5);
    expect(invitationQuestionCount(definition('adaptive', 9), {})).toBe(MAX_ADAPTIVE_QUESTIONS);
    expect(invitationQuestionCount(definition('adaptive', 9), { q1: 'yes' })).toBe(MAX_ADAPTIVE_QUESTIONS - 1);
    expect(invitationQuestionCount(definition('adaptive', 3), {})).toBe(3);
  });
});
