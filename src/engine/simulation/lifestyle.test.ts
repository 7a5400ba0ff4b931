import { describe, expect, it } from 'vitest';
import { lifestyleSurvey } from '@/engine/surveys/definitions';
import { simulateAnswer, simulateResponse } from '@/engine/surveys/simulate-answers';
import type { ChoiceQuestion } from '@/engine/surveys/types';
import { lifestyleAnswerShares, lifestyleMinuteRanges, simulateLifestyleAnswer } from './lifestyle';
import { personas } from './personas';
import { createRandomStream, nextUniform } from './random';

const bingeOrder = ['never', 'less-monthly', 'monthly', 'weekly', 'daily'];
const frequencyOrder = ['never', 'monthly', '2-4-month', '2-3-week', '4-plus-week'];

function responses(count: number, persona: (typeof personas)[number] = 'busy-professional') {
  return Array.from({ length: count }, (_, index) => {
    const stream = createRandomStream(11, index, 'survey');
    return simulateResponse({ definition: lifestyleSurvey, persona, noise: 0.15, uniform: () => nextUniform(stream) }).answers;
  });
}

describe('the simulated population’s lifestyle', () => {
  it('describes every lifestyle question with shares over exactly its answers, summing to 1', () => {
    for (const question of lifestyleSurvey.questions) {
      if (question.kind === 'number') {
        expect(lifestyleMinuteRanges[question.id], question.id).toBeDefined();
        continue;
      }
      const shares = lifestyleAnswerShares[question.id];
      expect(Object.keys(shares ?? {}).sort(), question.id).toEqual(question.options.map((option) => option.value).sort());
      expect(Object.values(shares!).reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 9);
    }
  });

  it('answers in the population’s shares, whatever the persona', () => {
    const count = 8000;
    for (const persona of ['forgetful-older-adult', 'engaged-self-manager'] as const) {
      const answers = responses(count, persona);
      for (const questionId of ['sleep-hours', 'smoking', 'stress', 'ipaq-walking-days', 'audit-c-frequency']) {
        for (const [value, share] of Object.entries(lifestyleAnswerShares[questionId]!)) {
          const seen = answers.filter((answer) => answer[questionId] === value).length / count;
          // Binomial standard error at 8,000 is at most 0.56 points; 2.5 points is over 4 of them.
          expect(Math.abs(seen - share), `${persona} ${questionId} ${value}`).toBeLessThan(0.025);
        }
      }
    }
  });

  it('keeps AUDIT-C coherent: non-drinkers have at most 2 drinks and never six, and nobody binges more often than they drink', () => {
    const answers = responses(6000);
    const nonDrinkers = answers.filter((answer) => answer['audit-c-frequency'] === 'never');
    expect(nonDrinkers.length).toBeGreaterThan(1000);
    for (const answer of nonDrinkers) expect([answer['audit-c-quantity'], answer['audit-c-binge']]).toEqual(['1-2', 'never']);
    for (const answer of answers) {
      const frequency = frequencyOrder.indexOf(String(answer['audit-c-frequency']));
      const binge = bingeOrder.indexOf(String(answer['audit-c-binge']));
      if (answer['audit-c-frequency'] === 'monthly') expect(binge).toBeLessThanOrEqual(bingeOrder.indexOf('monthly'));
      if (frequency < frequencyOrder.indexOf('4-plus-week')) expect(answer['audit-c-binge']).not.toBe('daily');
    }
    // Drinkers still report the heavier answers.
    expect(answers.some((answer) => answer['audit-c-binge'] === 'daily')).toBe(true);
    expect(answers.some((answer) => answer['audit-c-quantity'] === '10-plus')).toBe(true);
  });

  it('draws minutes within each range, in steps of 5', () => {
    for (const [questionId, [low, high]] of Object.entries(lifestyleMinuteRanges)) {
      for (const uniform of [0, 0.37, 0.999999]) {
        const minutes = simulateLifestyleAnswer({ questionId, answerValues: [], answers: {}, uniform }) as number;
        expect(minutes).toBeGreaterThanOrEqual(low);
        expect(minutes).toBeLessThanOrEqual(high);
        expect(minutes % 5).toBe(0);
      }
    }
  });

  it('leaves a question it does not describe, or an answer it does not know, to the definition’s own likelihoods', () => {
    expect(simulateLifestyleAnswer({ questionId: 'admin-new', answerValues: ['a', 'b'], answers: {}, uniform: 0.5 })).toBeNull();
    expect(simulateLifestyleAnswer({ questionId: 'smoking', answerValues: ['never', 'vaping'], answers: {}, uniform: 0.5 })).toBeNull();
    // An admin's new lifestyle question (equal likelihoods) is still answered, from those likelihoods.
    const question: ChoiceQuestion = {
      kind: 'choice',
      id: 'admin-new',
      topic: 'diet',
      text: 'New?',
      options: ['a', 'b'].map((value) => ({
        value,
        label: value,
        likelihoods: Object.fromEntries(personas.map((persona) => [persona, 0.5])) as ChoiceQuestion['options'][number]['likelihoods'],
      })),
    };
    expect(simulateAnswer(question, 'busy-professional', 0, () => 0.2)).toBe('a');
    expect(simulateAnswer(question, 'busy-professional', 0, () => 0.8)).toBe('b');
  });
});
