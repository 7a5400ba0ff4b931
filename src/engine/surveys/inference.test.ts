import { describe, expect, it } from 'vitest';
import { personas } from '@/engine/simulation/personas';
import { adherenceBarriersSurvey, builtInSurveys, lifestyleSurvey } from './definitions';
import {
  entropy,
  expectedInformationGain,
  likelihoodProblems,
  MAX_ADAPTIVE_QUESTIONS,
  nextQuestion,
  posteriorFromAnswers,
  updatePosterior,
} from './inference';
import { simulateResponse } from './simulate-answers';

// Reference values computed with python3/numpy:
//   H = lambda p: -(p[p>0]*np.log2(p[p>0])).sum()
//   prior=[.5,.5], L=[[.9,.2],[.1,.8]] -> IG 0.39731260974948646, posterior after "yes" [0.81818182, 0.18181818]
//   prior=[.5,.3,.2], L=[[.6,.1,.3],[.3,.3,.3],[.1,.6,.4]] -> IG 0.22412169523436998,
//     posterior after the third answer [0.16129032, 0.58064516, 0.25806452]
describe('persona posterior and information gain', () => {
  it('matches the golden vector of issue 17: IG 0.3973 bits, posterior (0.8182, 0.1818) after yes', () => {
    const likelihoods = [
      [0.9, 0.2],
      [0.1, 0.8],
    ];
    expect(expectedInformationGain([0.5, 0.5], likelihoods)).toBeCloseTo(0.39731260974948646, 10);
    const posterior = updatePosterior([0.5, 0.5], likelihoods[0]!);
    expect(posterior[0]).toBeCloseTo(0.81818182, 7);
    expect(posterior[1]).toBeCloseTo(0.18181818, 7);
  });

  it('matches numpy on a three-persona, three-answer question with an unequal prior', () => {
    const likelihoods = [
      [0.6, 0.1, 0.3],
      [0.3, 0.3, 0.3],
      [0.1, 0.6, 0.4],
    ];
    expect(expectedInformationGain([0.5, 0.3, 0.2], likelihoods)).toBeCloseTo(0.22412169523436998, 10);
    const posterior = updatePosterior([0.5, 0.3, 0.2], likelihoods[2]!);
    [0.16129032, 0.58064516, 0.25806452].forEach((value, index) => expect(posterior[index]).toBeCloseTo(value, 7));
  });

  it('gives no gain for an answer equally likely under every persona, and entropy 1 bit for a fair coin', () => {
    expect(
      expectedInformationGain(
        [0.25, 0.75],
        [
          [0.5, 0.5],
          [0.5, 0.5],
        ],
      ),
    ).toBe(0);
    expect(entropy([0.5, 0.5])).toBe(1);
    expect(updatePosterior([0.3, 0.7], [0, 0])).toEqual([0.3, 0.7]);
  });
});

describe('survey definitions', () => {
  it('have likelihoods that sum to 1 per persona for every question', () => {
    for (const definition of builtInSurveys) expect(likelihoodProblems(definition)).toEqual([]);
  });
});

describe('next question', () => {
  it('asks a fixed survey in order and skips minutes after "None" days', () => {
    const first = nextQuestion({ definition: lifestyleSurvey, answers: {} });
    expect(first.done === false && first.question.id).toBe('ipaq-vigorous-days');
    const afterNone = nextQuestion({ definition: lifestyleSurvey, answers: { 'ipaq-vigorous-days': '0' } });
    expect(afterNone.done === false && afterNone.question.id).toBe('ipaq-moderate-days');
    const afterSome = nextQuestion({ definition: lifestyleSurvey, answers: { 'ipaq-vigorous-days': '2' } });
    expect(afterSome.done === false && afterSome.question.id).toBe('ipaq-vigorous-minutes');
  });

  it('asks the barrier question of greatest expected information gain first', () => {
    const step = nextQuestion({ definition: adherenceBarriersSurvey, answers: {} });
    if (step.done) throw new Error('expected a question');
    const uniform = personas.map(() => 1 / personas.length);
    const gains = adherenceBarriersSurvey.questions.map((question) =>
      question.kind === 'choice'
        ? expectedInformationGain(
            uniform,
            question.options.map((option) => personas.map((persona) => option.likelihoods[persona])),
          )
        : 0,
    );
    expect(step.informationGain).toBeCloseTo(Math.max(...gains), 12);
    expect(step.informationGain).toBeGreaterThan(0);
  });

  it('stops when the top persona reaches 0.85', () => {
    const answers = { concerns: 'often', need: 'often', understanding: 'never', 'missed-days': 'often' };
    expect(Math.max(...posteriorFromAnswers(adherenceBarriersSurvey, answers))).toBeGreaterThanOrEqual(0.85);
    expect(nextQuestion({ definition: adherenceBarriersSurvey, answers })).toEqual({ done: true, reason: 'confident' });
  });

  it('stops after 5 questions, and when no question gains more than the threshold', () => {
    const answers = { forgetting: 'sometimes', routine: 'sometimes', concerns: 'sometimes', need: 'sometimes', cost: 'sometimes' };
    expect(nextQuestion({ definition: adherenceBarriersSurvey, answers })).toEqual({ done: true, reason: 'question-limit' });
    expect(nextQuestion({ definition: adherenceBarriersSurvey, answers: {}, minInformationGain: 10 })).toEqual({
      done: true,
      reason: 'no-informative-question',
    });
  });

  it('never asks more than 5 barrier questions of a simulated patient', () => {
    let state = 7;
    const uniform = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    for (const persona of personas) {
      for (let run = 0; run < 20; run += 1) {
        const { order } = simulateResponse({ definition: adherenceBarriersSurvey, persona, noise: 0.1, uniform });
        expect(order.length).toBeGreaterThan(0);
        expect(order.length).toBeLessThanOrEqual(MAX_ADAPTIVE_QUESTIONS);
      }
    }
  });
});
