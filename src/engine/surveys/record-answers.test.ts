import { describe, expect, it } from 'vitest';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { adherenceBarriersSurvey, adherenceBarriersSurveyVersion3 } from './definitions';
import { responseInformation } from './evolution';
import { entropy, MAX_ADAPTIVE_QUESTIONS, nextQuestion, posteriorFromAnswers, STOP_PROBABILITY } from './inference';
import { answersFromRecord, recordAnsweredIds } from './record-answers';
import { SIMULATED_ANSWER_NOISE, simulateResponse } from './simulate-answers';

describe('answersFromRecord', () => {
  it('answers the questions that name a record field, in their answers’ own values (75+ is 75-plus)', () => {
    expect(answersFromRecord(adherenceBarriersSurvey, { 'age-band': '75+', 'preferred-channel': 'whatsapp' })).toEqual({
      'age-band': '75-plus',
      'contact-channel': 'whatsapp',
    });
    expect(answersFromRecord(adherenceBarriersSurvey, { 'age-band': '45-54', 'preferred-channel': null })).toEqual({ 'age-band': '45-54' });
  });

  it('reads a days’ supply as about a month (20–45 days) or about three months (75–105); any other supply says neither', () => {
    const supply = (days: string) => answersFromRecord(adherenceBarriersSurvey, { 'days-supply': days })['supply-length'];
    expect(['20', '28', '30', '45', '75', '84', '90', '105'].map(supply)).toEqual([
      'month',
      'month',
      'month',
      'month',
      'three-months',
      'three-months',
      'three-months',
      'three-months',
    ]);
    expect(['7', '19', '60', '120', 'many'].map(supply)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('leaves out what the record lacks or no answer names, and every question of a version without record fields', () => {
    expect(answersFromRecord(adherenceBarriersSurvey, { 'age-band': null })).toEqual({});
    expect(answersFromRecord(adherenceBarriersSurvey, { 'age-band': '120-plus', 'preferred-channel': 'pigeon' })).toEqual({});
    expect(answersFromRecord(adherenceBarriersSurveyVersion3, { 'age-band': '45-54', 'preferred-channel': 'sms' })).toEqual({});
  });
});

describe('recordAnsweredIds', () => {
  it('names the answers to record questions that were never asked; an asked one is the patient’s', () => {
    const answers = { 'age-band': '45-54', 'contact-channel': 'sms', 'stop-reason': 'not-stopped' };
    expect(recordAnsweredIds(adherenceBarriersSurvey, answers, ['stop-reason'])).toEqual(['age-band', 'contact-channel']);
    // Asked because the record lacked it when the response started.
    expect(recordAnsweredIds(adherenceBarriersSurvey, answers, ['contact-channel', 'stop-reason'])).toEqual(['age-band']);
    // Version 3 names no record field: nothing is the record's.
    expect(recordAnsweredIds(adherenceBarriersSurveyVersion3, answers, ['stop-reason'])).toEqual([]);
  });
});

describe('the record’s answers in the engine', () => {
  const recordAnswers = answersFromRecord(adherenceBarriersSurvey, { 'age-band': '35-44', 'preferred-channel': 'app' });

  it('count in the posterior but not among the 5 questions asked', () => {
    const fromRecord = Object.keys(recordAnswers);
    const answers: Record<string, string | number> = { ...recordAnswers };
    let asked = 0;
    for (let step = nextQuestion({ definition: adherenceBarriersSurvey, answers, fromRecord, stopProbability: 2 }); !step.done;) {
      answers[step.question.id] = step.question.kind === 'choice' ? step.question.options[0]!.value : '0';
      asked += 1;
      step = nextQuestion({ definition: adherenceBarriersSurvey, answers, fromRecord, stopProbability: 2 });
    }
    expect(asked).toBe(MAX_ADAPTIVE_QUESTIONS);
    // Without `fromRecord` they would have used two of the five: three asked answers would end it.
    const threeAsked = { ...recordAnswers, forgetting: 'often', cost: 'often', 'stop-reason': 'worries' };
    expect(nextQuestion({ definition: adherenceBarriersSurvey, answers: threeAsked, stopProbability: 2 })).toMatchObject({
      done: true,
      reason: 'question-limit',
    });
    expect(nextQuestion({ definition: adherenceBarriersSurvey, answers: threeAsked, fromRecord, stopProbability: 2 }).done).toBe(false);
  });

  it('never end the survey before a question is asked, even when they make one persona likely enough', () => {
    const confident = answersFromRecord(adherenceBarriersSurvey, { 'age-band': '75+', 'preferred-channel': 'sms', 'days-supply': '90' });
    expect(Math.max(...posteriorFromAnswers(adherenceBarriersSurvey, confident))).toBeGreaterThanOrEqual(STOP_PROBABILITY);
    const first = nextQuestion({ definition: adherenceBarriersSurvey, answers: confident, fromRecord: Object.keys(confident) });
    expect(first.done).toBe(false);
    // After one answer the usual rule applies again.
    if (first.done || first.question.kind !== 'choice') throw new Error('expected a choice question');
    const afterOne = { ...confident, [first.question.id]: first.question.options[0]!.value };
    const posterior = posteriorFromAnswers(adherenceBarriersSurvey, afterOne);
    const next = nextQuestion({ definition: adherenceBarriersSurvey, answers: afterOne, fromRecord: Object.keys(confident) });
    expect(next.done).toBe(Math.max(...posterior) >= STOP_PROBABILITY);
  });

  it('give the prior the information figures start from; the record’s questions get no figure', () => {
    const answers = { ...recordAnswers, 'stop-reason': 'not-stopped' };
    const bits = responseInformation(adherenceBarriersSurvey, { answers, askedOrder: ['stop-reason'] });
    expect(Object.keys(bits)).toEqual(['stop-reason']);
    const before = entropy(posteriorFromAnswers(adherenceBarriersSurvey, recordAnswers));
    expect(bits['stop-reason']).toBeCloseTo(before - entropy(posteriorFromAnswers(adherenceBarriersSurvey, answers)), 12);
  });

  it('are there from the start of a simulated response and never in its order asked', () => {
    const stream = createRandomStream(5, 0, 'survey');
    const { answers, order } = simulateResponse({
      definition: adherenceBarriersSurvey,
      persona: 'busy-professional',
      noise: SIMULATED_ANSWER_NOISE,
      uniform: () => nextUniform(stream),
      recordAnswers,
    });
    expect(answers).toMatchObject(recordAnswers);
    expect(order).not.toContain('age-band');
    expect(order).not.toContain('contact-channel');
    expect(order.length).toBeLessThanOrEqual(MAX_ADAPTIVE_QUESTIONS);
    expect(order.length).toBeGreaterThan(0);
  });
});
