import { describe, expect, it } from 'vitest';
import { classifyReply } from '@/engine/messaging';
import { adherenceBarriersSurvey, lifestyleSurvey } from './definitions';
import { nextQuestion } from './inference';
import {
  afterUnparseableReply,
  MAX_QUESTIONS_PER_MESSAGE,
  nextMessageQuestions,
  parseSurveyPayload,
  parseSurveyReply,
  renderSurveySms,
  renderSurveyWhatsApp,
  surveyButtonPayload,
} from './message-delivery';
import type { SurveyQuestion } from './types';

const question = (id: string): SurveyQuestion =>
  [...lifestyleSurvey.questions, ...adherenceBarriersSurvey.questions].find((q) => q.id === id)!;

describe('nextMessageQuestions', () => {
  it('sends a fixed survey’s next due questions in order, ending before one that depends on an answer in the message', () => {
    expect(nextMessageQuestions(lifestyleSurvey, {}).map((q) => q.id)).toEqual(['ipaq-vigorous-days']);
    expect(nextMessageQuestions(lifestyleSurvey, { 'ipaq-vigorous-days': '0' }).map((q) => q.id)).toEqual(['ipaq-moderate-days']);
    expect(nextMessageQuestions(lifestyleSurvey, { 'ipaq-vigorous-days': '2' }).map((q) => q.id)).toEqual([
      'ipaq-vigorous-minutes',
      'ipaq-moderate-days',
    ]);
    const alcohol = nextMessageQuestions(lifestyleSurvey, {
      'ipaq-vigorous-days': '0',
      'ipaq-moderate-days': '0',
      'ipaq-walking-days': '0',
      'ipaq-sitting-minutes': 300,
    });
    expect(alcohol.map((q) => q.id)).toEqual(['audit-c-frequency', 'audit-c-quantity', 'audit-c-binge']);
  });

  it('starts an adaptive message with the engine’s next question, then the next largest gains, within 3 and the 5-question limit', () => {
    const first = nextMessageQuestions(adherenceBarriersSurvey, {});
    const step = nextQuestion({ definition: adherenceBarriersSurvey, answers: {} });
    expect(step.done).toBe(false);
    expect(first[0]!.id).toBe(!step.done ? step.question.id : '');
    expect(first).toHaveLength(MAX_QUESTIONS_PER_MESSAGE);
    expect(new Set(first.map((q) => q.id)).size).toBe(3);
    const fourAnswered = { forgetting: 'often', routine: 'sometimes', concerns: 'never', need: 'never' };
    expect(nextMessageQuestions(adherenceBarriersSurvey, fourAnswered).length).toBeLessThanOrEqual(1);
  });
});

describe('rendering', () => {
  it('gives WhatsApp buttons for one question of up to 3 answers, with payloads naming the message, question and answer', () => {
    const message = renderSurveyWhatsApp([question('cost')], 'r1');
    expect(message).toEqual({
      kind: 'buttons',
      body: question('cost').text,
      buttons: [
        { title: 'Often', payload: 'survey:r1:cost:often' },
        { title: 'Sometimes', payload: 'survey:r1:cost:sometimes' },
        { title: 'Never', payload: 'survey:r1:cost:never' },
      ],
    });
  });

  it('gives a WhatsApp list for one question of 4 to 10 answers, titles within 24 characters', () => {
    const message = renderSurveyWhatsApp([question('smoking')], 'r1');
    expect(message.kind).toBe('list');
    if (message.kind !== 'list') return;
    expect(message.rows).toHaveLength(4);
    expect(message.rows.every((row) => row.title.length <= 24)).toBe(true);
    expect(message.rows[1]).toMatchObject({ description: 'I used to smoke but have stopped', payload: 'survey:r1:smoking:former' });
  });

  it('numbers several questions and their answers, by WhatsApp text and by SMS with the opt-out', () => {
    const questions = [question('audit-c-frequency'), question('audit-c-quantity')];
    const whatsapp = renderSurveyWhatsApp(questions, 'r1');
    expect(whatsapp.kind).toBe('text');
    const sms = renderSurveySms(questions);
    expect(sms).toContain('1. How often do you have a drink containing alcohol?\n1 = Never\n2 = Monthly or less');
    expect(sms).toContain('Reply with one number per question, in order, for example “1 1”.');
    expect(sms.endsWith('STOP to opt out.')).toBe(true);
  });
});

describe('parseSurveyReply', () => {
  const questions = [question('audit-c-frequency'), question('audit-c-quantity'), question('ipaq-walking-minutes')];
  const parse = (text: string) => parseSurveyReply({ questions, reference: 'r1', reply: { kind: 'text', text } });

  it('reads one number per question, separated by spaces, commas or lines', () => {
    const expected = {
      kind: 'answers',
      answers: { 'audit-c-frequency': 'monthly', 'audit-c-quantity': '1-2', 'ipaq-walking-minutes': 30 },
    };
    expect(parse('2 1 30')).toEqual(expected);
    expect(parse('2,1,30')).toEqual(expected);
    expect(parse('2\n1\n30')).toEqual(expected);
  });

  it('refuses a wrong count, an answer number out of range, minutes out of range, and a question', () => {
    expect(parse('2 1')).toEqual({ kind: 'unparseable' });
    expect(parse('6 1 30')).toEqual({ kind: 'unparseable' });
    expect(parse('2 1 2000')).toEqual({ kind: 'unparseable' });
    expect(parse('what does 2 mean?')).toEqual({ kind: 'unparseable' });
  });

  it('reads a tap on a button we issued for this message, and an answer’s words for a single question', () => {
    const cost = [question('cost')];
    expect(
      parseSurveyReply({
        questions: cost,
        reference: 'r1',
        reply: { kind: 'button', payload: surveyButtonPayload('r1', 'cost', 'often') },
      }),
    ).toEqual({
      kind: 'answers',
      answers: { cost: 'often' },
    });
    expect(parseSurveyReply({ questions: cost, reference: 'r2', reply: { kind: 'button', payload: 'survey:r1:cost:often' } })).toEqual({
      kind: 'unparseable',
    });
    expect(parseSurveyReply({ questions: cost, reference: 'r1', reply: { kind: 'text', text: 'Sometimes.' } })).toEqual({
      kind: 'answers',
      answers: { cost: 'sometimes' },
    });
    expect(parseSurveyReply({ questions: cost, reference: 'r1', reply: { kind: 'reaction', emoji: '👍' } })).toEqual({
      kind: 'unparseable',
    });
    expect(parseSurveyPayload('dose.taken')).toBeNull();
  });
});

describe('afterUnparseableReply', () => {
  it('asks once more with the questions, then keeps the reply for a person', () => {
    const first = afterUnparseableReply({ clarificationsSent: 0, questions: [question('cost')] });
    expect(first.kind).toBe('clarify');
    if (first.kind === 'clarify') expect(first.text).toMatch(/^Sorry, we could not read that reply\.\n.+\n1 = Often/);
    expect(afterUnparseableReply({ clarificationsSent: 1, questions: [question('cost')] })).toEqual({ kind: 'hold-for-human' });
  });

  it('names the dose message too when one awaits, with words the dose reader reads and the survey reader does not', () => {
    const questions = [question('cost')];
    const both = afterUnparseableReply({ clarificationsSent: 0, questions, doseMessageAwaiting: true });
    if (both.kind !== 'clarify') throw new Error('expected a clarification');
    expect(both.text).toMatch(/medicine reminder.+TAKEN, NOT YET or SKIP.+numbers as below\.\n.+\n1 = Often/s);
    for (const [word, intent] of [
      ['TAKEN', 'taken'],
      ['NOT YET', 'not-yet'],
      ['SKIP', 'skipped'],
      ['TOMADA', 'taken'],
      ['AÚN NO', 'not-yet'],
      ['OMITIR', 'skipped'],
    ] as const) {
      expect(classifyReply({ kind: 'text', text: word }).intent).toBe(intent);
      expect(parseSurveyReply({ questions, reference: 'c', reply: { kind: 'text', text: word } })).toEqual({ kind: 'unparseable' });
    }
    // The survey's own answers stay numbers.
    expect(parseSurveyReply({ questions, reference: 'c', reply: { kind: 'text', text: '1' } }).kind).toBe('answers');
  });
});
