/**
 * The risk model (issue 18): train on 2,000 simulated patients × 52 weeks in under 60 s on one core, and score
 * 100,000 patients in under 2 s. Training is timed from the histories to the stored-ready result: the
 * patient-week features, the time split, logistic regression, the network's epochs and the evaluation (ROC,
 * AUC with DeLong CIs, Brier, calibration); simulating the cohort is timed on its own. Scoring is timed from
 * 100,000 simulated 5-week histories to each patient's network risk, logistic risk and top three reasons
 * (what the scoring job computes before it writes). Pure engine, one thread (tfjs's CPU backend is
 * single-threaded). `npm run bench -- risk [--patients N] [--score N]`.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  computeFeatures,
  explainRisk,
  featureCount,
  predictLogistic,
  predictNetwork,
  simulateHistories,
  trainAndEvaluate,
} from '@/engine/risk';
import { numberFlag } from './support/bench-options';

const flag = (name: string, fallback: number) => numberFlag(`--${name}`, fallback);
const trainPatients = flag('patients', 2000);
const scorePatients = flag('score', 100_000);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

process.stdout.write(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores\n`,
);

let start = performance.now();
const histories = simulateHistories({ patients: trainPatients, weeks: 52, seed: 1 });
process.stdout.write(`simulate ${trainPatients} patients × 52 weeks: ${seconds(performance.now() - start)} (not part of the target)\n`);

start = performance.now();
const { evaluation, models } = await trainAndEvaluate({ histories, seed: 1 });
const trainMs = performance.now() - start;
process.stdout.write(
  `train and evaluate: ${seconds(trainMs)} (target < 60 s: ${trainMs < 60_000 ? 'met' : 'NOT met'}); ` +
    `${evaluation.trainRows} training and ${evaluation.testRows} test patient-weeks\n`,
);
for (const model of evaluation.models) {
  process.stdout.write(
    `  ${model.name.padEnd(12)} AUC ${model.auc.toFixed(3)} (${model.aucLow.toFixed(3)}–${model.aucHigh.toFixed(3)}), Brier ${model.brier.toFixed(4)}\n`,
  );
}

start = performance.now();
const cohort = simulateHistories({ patients: scorePatients, weeks: 5, seed: 2 });
process.stdout.write(
  `simulate ${scorePatients} patients × 5 weeks to score: ${seconds(performance.now() - start)} (not part of the target)\n`,
);

start = performance.now();
const boundary = 35;
const features = new Float64Array(cohort.length * featureCount);
cohort.forEach((history, index) => features.set(computeFeatures(history, boundary), index * featureCount));
const featureMs = performance.now() - start;
const risks = predictNetwork(models.network, features);
predictLogistic(models.logistic, features);
let reasons = 0;
for (let index = 0; index < cohort.length; index += 1) {
  reasons += explainRisk(models.logistic, features.subarray(index * featureCount, (index + 1) * featureCount)).length;
}
const scoreMs = performance.now() - start;
process.stdout.write(
  `score ${cohort.length} patients: ${seconds(scoreMs)} (features ${seconds(featureMs)}; target < 2 s: ${scoreMs < 2000 ? 'met' : 'NOT met'}); ` +
    `mean risk ${(risks.reduce((total, value) => total + value, 0) / risks.length).toFixed(3)}, ${reasons} reasons\n`,
);
