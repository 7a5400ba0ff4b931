import { describe, expect, it } from 'vitest';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { adherenceBarriersSurvey, lifestyleSurvey } from './definitions';
import { MAX_ADAPTIVE_QUESTIONS } from './inference';
import { MAX_QUESTIONS_PER_MESSAGE, nextMessageQuestions } from './message-delivery';
import {
  SIMULATED_WEB_LEAVE_CHANCE,
  simulateMessageResponse,
  simulateResponse,
  simulateWebResponse,
  surveyMessageAnswerChance,
} from './simulate-answers';

const uniformFor = (index: number) => {
  const stream = createRandomStream(5, index, 'survey');
  return () => nextUniform(stream);
};

describe('simulateWebResponse', () => {
  it('leaves before the first question when the first draw is under the leave chance', () => {
    const response = simulateWebResponse({ definition: lifestyleSurvey, persona: 'busy-professional', noise: 0.15, uniform: () => 0 });
    expect(response).toEqual({ answers: {}, order: [], completed: false, steps: 0 });
  });

  it('answers the whole survey when nobody leaves, in the order the engine asks', () => {
    // 0.5 never leaves (0.5 ≥ 0.04) and always picks the same answers, so the full response is the plain one.
    const whole = simulateWebResponse({
      definition: adherenceBarriersSurvey,
      persona: 'medication-sceptic',
      noise: 0.15,
      uniform: () => 0.5,
    });
    const plain = simulateResponse({ definition: adherenceBarriersSurvey, persona: 'medication-sceptic', noise: 0.15, uniform: () => 0.5 });
    expect(whole).toEqual({ ...plain, completed: true, steps: plain.order.length });
  });

  it('leaves a fixed survey unfinished about as often as the leave chance compounds over its questions', () => {
    let completed = 0;
    let lengths = 0;
    const patients = 4000;
    for (let index = 0; index < patients; index += 1) {
      const response = simulateWebResponse({
        definition: lifestyleSurvey,
        persona: 'engaged-self-manager',
        noise: 0.15,
        uniform: uniformFor(index),
      });
      expect(Object.keys(response.answers)).toHaveLength(response.steps);
      if (response.completed) {
        completed += 1;
        lengths += response.steps;
      }
    }
    const meanLength = lengths / completed;
    const expected = (1 - SIMULATED_WEB_LEAVE_CHANCE) ** meanLength;
    // Binomial standard error at 4,000 is under 0.8 points; the questions asked vary a little with the answers.
    expect(Math.abs(completed / patients - expected)).toBeLessThan(0.03);
  });
});

describe('simulateMessageResponse', () => {
  it('answers message by message, at most 3 questions each and 5 in all for the adaptive survey, when every message is answered', () => {
    for (let index = 0; index < 200; index += 1) {
      const response = simulateMessageResponse({
        definition: adherenceBarriersSurvey,
        persona: 'newly-diagnosed',
        noise: 0.15,
        uniform: uniformFor(index),
        answerChance: 1,
      });
      expect(response.completed).toBe(true);
      expect(response.order.length).toBeLessThanOrEqual(MAX_ADAPTIVE_QUESTIONS);
      expect(response.steps).toBeGreaterThanOrEqual(Math.ceil(response.order.length / MAX_QUESTIONS_PER_MESSAGE));
      expect(nextMessageQuestions(adherenceBarriersSurvey, response.answers)).toEqual([]);
    }
  });

  it('stops, unfinished, at the first message left unanswered', () => {
    expect(
      simulateMessageResponse({
        definition: lifestyleSurvey,
        persona: 'busy-professional',
        noise: 0.15,
        uniform: () => 0.5,
        answerChance: 0,
      }),
    ).toEqual({ answers: {}, order: [], completed: false, steps: 0 });
    // The first draw (0.1) answers the first message, one draw per question; the next draw (0.9) leaves the second.
    const first = nextMessageQuestions(lifestyleSurvey, {});
    const draws = [0.1, ...first.map(() => 0.3), 0.9];
    let position = 0;
    const partial = simulateMessageResponse({
      definition: lifestyleSurvey,
      persona: 'busy-professional',
      noise: 0.15,
      uniform: () => draws[Math.min(position++, draws.length - 1)]!,
      answerChance: 0.5,
    });
    expect(partial.completed).toBe(false);
    expect(partial.steps).toBe(1);
    expect(partial.order).toEqual(first.map((question) => question.id));
  });
});

describe('surveyMessageAnswerChance', () => {
  it('is the simulator’s reply chance for a check-in, given a second time by the reminder', () => {
    // Engaged self-manager on WhatsApp: 0.45 × 1.2 (WhatsApp) × 1.6 (check-in) × 1 (fresh) = 0.864; with a reminder
    // 1 − 0.136².
    expect(surveyMessageAnswerChance('engaged-self-manager', 'whatsapp')).toBeCloseTo(1 - 0.136 ** 2, 12);
    // Sceptic by SMS: 0.08 × 0.8 × 1.6 = 0.1024; 1 − 0.8976².
    expect(surveyMessageAnswerChance('medication-sceptic', 'sms')).toBeCloseTo(1 - 0.8976 ** 2, 12);
  });
});
