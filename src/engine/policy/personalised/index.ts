/** The personalised (learning) messaging policy: pure, deterministic for a given seed. Decision record 021. */
export { defaultPersonalisedSettings, type PersonalisedSettings } from './settings';
export { observedReward, observedRewardWeights, confirmationsNeedMessage, type ObservedOutcome } from './observed-reward';
export { createPolicyState, updatePolicyState, type LoggedDecision, type PolicyState } from './policy-state';
export { arms, createPersonalisedPolicy, personalisedPolicyName, type PersonalisedPolicy } from './personalised-policy';
export { summarisePosterior, type PosteriorSummary, type PosteriorSummaryRow } from './summarise-posterior';
export { runPolicyResults, truthBestArms, type PersonaArmResult, type PolicyOutcome, type PolicyResults } from './policy-results';
