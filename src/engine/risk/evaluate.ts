/**
 * Trains the three models on the earlier weeks and evaluates them on the later weeks of the same patients.
 */
import { splitByTime, type RiskSplit } from './dataset';
import { featureCount } from './features';
import type { PatientHistory } from './history';
import { predictLogistic, trainLogistic, type LogisticModel } from './logistic';
import { aucWithDeLong, brierScore, calibrationBins, rocCurve, type CalibrationBin, type RocPoint } from './metrics';
import { predictNetwork, trainNetwork, type EpochLoss, type NetworkModel } from './network';
import { predictLast30Day } from './rule';

export const modelNames = ['network', 'logistic', 'last-30-day'] as const;
export type ModelName = (typeof modelNames)[number];

export type ModelEvaluation = {
  name: ModelName;
  auc: number;
  aucLow: number;
  aucHigh: number;
  brier: number;
  roc: RocPoint[];
  calibration: CalibrationBin[];
};

export type RiskEvaluation = {
  models: ModelEvaluation[];
  trainRows: number;
  testRows: number;
  testPatients: number;
  testWeeks: number;
  trainWeeks: number;
  /** Share of test patient-weeks with adherence < 0.8. */
  testPrevalence: number;
  trainingCurve: EpochLoss[];
  /** Whether the network's AUC CI lies wholly above logistic regression's AUC (a plain, conservative reading). */
  networkBeatsLogistic: boolean;
};

export type TrainedRiskModels = { network: NetworkModel; logistic: LogisticModel };

export async function trainAndEvaluate(options: {
  histories: readonly PatientHistory[];
  seed: number;
  onProgress?: (step: string, done: number, total: number) => void | Promise<void>;
}): Promise<{ evaluation: RiskEvaluation; models: TrainedRiskModels; split: RiskSplit }> {
  const split = splitByTime(options.histories);
  const { train, test } = split;
  for (const [part, rows] of [
    ['training', train],
    ['test', test],
  ] as const) {
    let positives = 0;
    for (const label of rows.labels) positives += label;
    if (positives === 0 || positives === rows.size) {
      throw new RangeError(`the ${part} weeks need patient-weeks both below and at or above 0.8 adherence (cohort too small?)`);
    }
  }
  const logistic = trainLogistic({ features: train.features, labels: train.labels, width: featureCount });
  const { model: network, curve } = await trainNetwork({
    features: train.features,
    labels: train.labels,
    width: featureCount,
    seed: options.seed,
    heldOut: { features: test.features, labels: test.labels },
    onEpoch: (loss, epochs) => options.onProgress?.('network', loss.epoch, epochs),
  });
  const predictions: Record<ModelName, Float64Array> = {
    network: predictNetwork(network, test.features),
    logistic: predictLogistic(logistic, test.features),
    'last-30-day': predictLast30Day(test.features),
  };
  const models = modelNames.map((name): ModelEvaluation => {
    const scores = predictions[name];
    const auc = aucWithDeLong(scores, test.labels);
    return {
      name,
      auc: auc.auc,
      aucLow: auc.low,
      aucHigh: auc.high,
      brier: brierScore(scores, test.labels),
      roc: rocCurve(scores, test.labels),
      calibration: calibrationBins(scores, test.labels),
    };
  });
  let positives = 0;
  for (const label of test.labels) positives += label;
  const networkEvaluation = models[0]!;
  const logisticEvaluation = models[1]!;
  return {
    evaluation: {
      models,
      trainRows: train.size,
      testRows: test.size,
      testPatients: new Set(test.patientIndex).size,
      testWeeks: split.testBoundaries.length,
      trainWeeks: split.trainBoundaries.length,
      testPrevalence: positives / test.size,
      trainingCurve: curve,
      networkBeatsLogistic: networkEvaluation.aucLow > logisticEvaluation.auc,
    },
    models: { network, logistic },
    split,
  };
}
