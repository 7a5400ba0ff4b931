/** Off-policy evaluation of messaging policies on decision logs, simulated or live (decision 022). */
export {
  checkSample,
  directMethodEstimate,
  doublyRobustEstimate,
  importanceWeight,
  inversePropensityEstimate,
  selfNormalisedEstimate,
  unsupportedTargetMass,
  type OffPolicySample,
  type RewardPrediction,
} from './estimators';
export {
  cellMeanRewardModel,
  evaluateTargetPolicy,
  offPolicyDefaults,
  quantileOfSorted,
  type EvaluateTargetPolicyOptions,
  type IntervalEstimate,
  type TargetPolicyEvaluation,
} from './evaluate-target-policy';
export {
  actionCount,
  certainAction,
  decisionContextFromJson,
  defaultTargetDraws,
  loggedActionIndex,
  offPolicySamples,
  rewardModelGroup,
  targetFromPolicy,
  type DecisionLogRow,
  type TargetPolicy,
} from './decision-log-samples';
export { evaluateDecisionLog, type DecisionLogEvaluation, type PolicyDecisionRow } from './evaluate-decision-log';
