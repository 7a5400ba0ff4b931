/**
 * Test only: the persona-accuracy counts as computed before decision 062 (the product's `nextQuestion` and
 * `posteriorFromAnswers` at every step), kept so a test can show the cheaper computation gives the same counts —
 * and, with nextQuestion's own stop rules, the same count of questions asked and of personas found.
 */
import { type Persona, personas } from '@/engine/simulation/personas';
import { nextQuestion, posteriorFromAnswers, topPersona } from '../inference';
import { type AccuracyCounts, drawSimulatedRecord, informativeQuestions, type PersonaShares } from '../persona-accuracy';
import { answersFromRecord } from '../record-answers';
import { simulateAnswer } from '../simulate-answers';
import type { SurveyDefinition } from '../types';

function drawPersona(shares: PersonaShares, uniform: () => number): Persona {
  const total = personas.reduce((sum, persona) => sum + shares[persona], 0);
  let draw = uniform() * total;
  for (const persona of personas) {
    draw -= shares[persona];
    if (draw < 0) return persona;
  }
  return personas[personas.length - 1]!;
}

export function countPersonaAccuracyReference(options: {
  definition: SurveyDefinition;
  shares: PersonaShares;
  patients: number;
  noise: number;
  uniformFor: (index: number) => () => number;
  from: number;
  to: number;
}): AccuracyCounts {
  const informative = informativeQuestions(options.definition);
  // The questions the record answers are never asked (docs/decisions/068).
  const questions = informative.filter((question) => question.recordField === undefined);
  const definition: SurveyDefinition = { ...options.definition, questions: informative };
  const adaptiveDefinition: SurveyDefinition = { ...definition, order: 'adaptive' };
  const correct: AccuracyCounts = {
    adaptive: new Array<number>(questions.length + 1).fill(0),
    fixed: new Array<number>(questions.length + 1).fill(0),
    withStopRules: { patients: 0, questions: 0, correct: 0 },
  };
  for (let index = options.from; index < Math.min(options.to, options.patients); index += 1) {
    const uniform = options.uniformFor(index);
    const persona = drawPersona(options.shares, uniform);
    const drawn: Record<string, string> = {};
    for (const question of informative) drawn[question.id] = simulateAnswer(question, persona, options.noise, uniform) as string;
    const recordAnswers =
      informative.length === questions.length ? {} : answersFromRecord(definition, drawSimulatedRecord(persona, uniform));
    const fromRecord = Object.keys(recordAnswers);

    const fixedAnswers: Record<string, string | number> = { ...recordAnswers };
    const adaptiveAnswers: Record<string, string | number> = { ...recordAnswers };
    for (let asked = 0; asked <= questions.length; asked += 1) {
      if (asked > 0) {
        const fixedQuestion = questions[asked - 1]!;
        fixedAnswers[fixedQuestion.id] = drawn[fixedQuestion.id]!;
        const step = nextQuestion({
          definition: adaptiveDefinition,
          answers: adaptiveAnswers,
          fromRecord,
          stopProbability: Number.POSITIVE_INFINITY,
          maxQuestions: Number.POSITIVE_INFINITY,
          minInformationGain: Number.NEGATIVE_INFINITY,
        });
        if (step.done) throw new Error('The adaptive order stopped before every question was asked');
        adaptiveAnswers[step.question.id] = drawn[step.question.id]!;
      }
      if (topPersona(posteriorFromAnswers(definition, fixedAnswers)).persona === persona) correct.fixed[asked]! += 1;
      if (topPersona(posteriorFromAnswers(definition, adaptiveAnswers)).persona === persona) correct.adaptive[asked]! += 1;
    }

    // The survey as the product runs it: nextQuestion with its own stop rules, until it says done.
    const productAnswers: Record<string, string | number> = { ...recordAnswers };
    for (let step = nextQuestion({ definition: adaptiveDefinition, answers: productAnswers, fromRecord }); !step.done;) {
      productAnswers[step.question.id] = drawn[step.question.id]!;
      step = nextQuestion({ definition: adaptiveDefinition, answers: productAnswers, fromRecord });
    }
    correct.withStopRules.patients += 1;
    correct.withStopRules.questions += Object.keys(productAnswers).length - fromRecord.length;
    if (topPersona(posteriorFromAnswers(definition, productAnswers)).persona === persona) correct.withStopRules.correct += 1;
  }
  return correct;
}
