/** The non-adherence risk model (issue 18, decision 046): features, models, metrics and the targeting simulation. */
export { computeFeatures, computeLabel, featureCount, featureSpecs, nonAdherenceThreshold } from './features';
export { createHistoryCollector, emptyHistory, type PatientHistory, type RiskPatient, type RiskDispensing } from './history';
export { splitByTime, weekBoundaries } from './dataset';
export {
  trainAndEvaluate,
  modelNames,
  type ModelName,
  type ModelEvaluation,
  type RiskEvaluation,
  type TrainedRiskModels,
} from './evaluate';
export { contributions, predictLogistic, type LogisticModel } from './logistic';
export { predictNetwork, networkSettings, type NetworkModel, type EpochLoss } from './network';
export { predictLast30Day } from './rule';
export { simulateHistories, simulatedStartDay } from './simulate-histories';
export { simulateTargeting, targetingScenarios, type TargetingEffect, type TargetingResult, type TargetingScenario } from './targeting';
export { aucWithDeLong, brierScore, calibrationBins, rocCurve, type CalibrationBin, type RocPoint } from './metrics';
export { explainRisk, type RiskReason } from './explain';
