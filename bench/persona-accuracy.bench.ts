/**
 * The persona-accuracy curves of survey-evolution (issue 17, decisions 047, 055, 062, 068): 4,000 simulated patients
 * answering every barrier question (version 4: every one the record does not answer), counted in the adaptive and
 * the fixed order. Times the computation the
 * server runs at start (`countPersonaAccuracy`) against the one before decision 062 (the product's
 * `nextQuestion` and `posteriorFromAnswers` at every step, kept as the tests' reference) for versions 2, 3 and 4,
 * checks they count the same, and prints the questions each order needs to reach 80% on the page's seed (47)
 * and three others. `npm run bench -- persona-accuracy [--patients N]`.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { personaParameters, personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import {
  adherenceBarriersSurvey,
  adherenceBarriersSurveyVersion2,
  adherenceBarriersSurveyVersion3,
  countPersonaAccuracy,
  informativeQuestions,
  SIMULATED_ANSWER_NOISE,
  summarisePersonaAccuracy,
  type SurveyDefinition,
} from '@/engine/surveys';
import { countPersonaAccuracyReference } from '@/engine/surveys/test-support/persona-accuracy-reference';

const flag = process.argv.indexOf('--patients');
const patients = flag === -1 ? 4000 : Number(process.argv[flag + 1]);
const shares = Object.fromEntries(personas.map((persona) => [persona, personaParameters[persona].share])) as Record<
  (typeof personas)[number],
  number
>;
const optionsFor = (definition: SurveyDefinition, seed: number) => ({
  definition,
  shares,
  patients,
  noise: SIMULATED_ANSWER_NOISE,
  from: 0,
  to: patients,
  uniformFor: (index: number) => {
    const stream = createRandomStream(seed, index, 'survey');
    return () => nextUniform(stream);
  },
});
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

process.stdout.write(`persona accuracy: ${patients} patients, load average ${os.loadavg()[0]!.toFixed(1)} at start\n`);
for (const [name, definition] of [
  ['version 2', adherenceBarriersSurveyVersion2],
  ['version 3', adherenceBarriersSurveyVersion3],
  ['version 4', adherenceBarriersSurvey],
] as const) {
  const options = optionsFor(definition, 47);
  let started = performance.now();
  const counts = countPersonaAccuracy(options);
  const fast = performance.now() - started;
  started = performance.now();
  const reference = countPersonaAccuracyReference(options);
  const before = performance.now() - started;
  const same = JSON.stringify(counts) === JSON.stringify(reference);
  process.stdout.write(
    `  ${name} (${informativeQuestions(definition).length} questions, ${informativeQuestions(definition).filter((question) => question.recordField === undefined).length} asked): ${seconds(fast)} now, ${seconds(before)} before decision 062; counts ${same ? 'identical' : 'DIFFER'}\n`,
  );
  if (!same) process.exitCode = 1;
  for (const seed of [47, 48, 49, 50]) {
    const result = summarisePersonaAccuracy({
      counts: [seed === 47 ? counts : countPersonaAccuracy(optionsFor(definition, seed))],
      patients,
      noise: SIMULATED_ANSWER_NOISE,
    });
    process.stdout.write(
      `    seed ${seed}: 80% after ${result.adaptiveQuestionsToTarget ?? 'never'} adaptive, ${result.fixedQuestionsToTarget ?? 'never'} fixed; ratio ${result.questionRatio?.toFixed(3) ?? 'n/a'} (target ≤ 0.6); ${(result.curve.at(-1)!.fixed * 100).toFixed(1)}% after all\n`,
    );
  }
}
