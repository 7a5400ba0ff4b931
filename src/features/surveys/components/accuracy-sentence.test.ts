import { describe, expect, it } from 'vitest';
import type { PersonaAccuracy } from '@/engine/surveys';
import { accuracySentence, stopRulesSentence } from './accuracy-sentence';

function result(adaptive: number[], fixed: number[], adaptiveTo: number | null, fixedTo: number | null): PersonaAccuracy {
  return {
    patients: 100,
    noise: 0.15,
    target: 0.8,
    curve: adaptive.map((value, questions) => ({ questions, adaptive: value, fixed: fixed[questions]! })),
    adaptiveQuestionsToTarget: adaptiveTo,
    fixedQuestionsToTarget: fixedTo,
    questionRatio: adaptiveTo === null || fixedTo === null ? null : adaptiveTo / fixedTo,
    withStopRules: { meanQuestions: 4.3975, accuracy: 0.618 },
  };
}

describe('accuracySentence', () => {
  it('says the target is not met, with the best accuracy, when neither order reaches it', () => {
    const sentence = accuracySentence(result([0.2, 0.4, 0.561], [0.2, 0.3, 0.561], null, null));
    expect(sentence).toContain('not reached in 2 questions');
    expect(sentence).toContain('Target not met');
    expect(sentence).toContain('56.1%');
  });

  it('compares the questions needed when both orders reach it', () => {
    expect(accuracySentence(result([0.2, 0.85, 0.9, 0.9], [0.2, 0.5, 0.7, 0.82], 1, 3))).toContain(
      '33% of the fixed order’s questions: target (at most 60%) met',
    );
    expect(accuracySentence(result([0.2, 0.5, 0.85, 0.9], [0.2, 0.5, 0.82, 0.9], 2, 2))).toContain('target (at most 60%) not met');
  });
});

describe('stopRulesSentence', () => {
  it('states the product’s stop rules and what they give: mean questions asked and accuracy', () => {
    expect(stopRulesSentence(result([0.2, 0.5], [0.2, 0.4], null, null))).toBe(
      'As the product runs it — stopping once the top persona reaches 85% after at least one question, when no question would add more than 0.02 bits, or after 5 questions — the adaptive survey asks these patients 4.4 questions on average and finds the true persona for 61.8% of them.',
    );
  });
});
