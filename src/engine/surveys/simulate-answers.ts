/**
 * Simulated patients answering a survey (synthetic demo data, docs/decisions/041): a choice is drawn from
 * P(answer | true persona) mixed with `noise` of uniform guessing, so the answers are informative but
 * imperfect; a number (IPAQ minutes) from a plausible range. The caller passes its own uniform draws.
 */
import type { Persona } from '@/engine/simulation/personas';
import { nextQuestion } from './inference';
import type { SurveyAnswers, SurveyDefinition, SurveyQuestion } from './types';

/** The share of uniform guessing in simulated answers: the demo data and the persona-accuracy figures both use it. */
export const SIMULATED_ANSWER_NOISE = 0.15;

export function simulateAnswer(question: SurveyQuestion, persona: Persona, noise: number, uniform: () => number): string | number {
  if (question.kind === 'number') {
    // Activity bouts of 10–90 minutes; sitting 2–12 hours. Rounded to 5 minutes as people report them.
    const [low, high] = question.max > 960 ? [120, 720] : [10, 90];
    return Math.round((low + uniform() * (high - low)) / 5) * 5;
  }
  const weights = question.options.map((option) => (1 - noise) * option.likelihoods[persona] + noise / question.options.length);
  let draw = uniform() * weights.reduce((sum, weight) => sum + weight, 0);
  for (let index = 0; index < weights.length; index += 1) {
    draw -= weights[index]!;
    if (draw < 0) return question.options[index]!.value;
  }
  return question.options[question.options.length - 1]!.value;
}

/** A whole response as the engine would ask it (adaptive order and stop rules included). */
export function simulateResponse(options: { definition: SurveyDefinition; persona: Persona; noise: number; uniform: () => number }): {
  answers: SurveyAnswers;
  order: string[];
} {
  const answers: Record<string, string | number> = {};
  const order: string[] = [];
  for (;;) {
    const step = nextQuestion({ definition: options.definition, answers });
    if (step.done) return { answers, order };
    answers[step.question.id] = simulateAnswer(step.question, options.persona, options.noise, options.uniform);
    order.push(step.question.id);
  }
}
