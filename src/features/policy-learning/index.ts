/**
 * The live learning policy (docs/decisions/023-live-learning-policy.md): the personalised policy the daily loop
 * decides with (the latest stored version), the nightly 'policy-update' job that learns from the logged
 * decisions and their observed rewards, and the queries the learning pages read. Server-only.
 */
export { estimateLivePolicyValues } from './server/estimate-live-policy-values';
export { findCurrentPolicyVersion } from './server/find-current-policy-version';
export { listPolicyStates } from './server/list-policy-states';
export { loadPersonalisedPolicy } from './server/load-personalised-policy';
export {
  enqueuePolicyUpdate,
  ensurePolicyUpdate,
  policyUpdateKey,
  policyUpdateMinuteUtc,
  runPolicyUpdate,
} from './server/run-policy-update';
export { updateLivePolicy, type UpdateLivePolicyResult } from './server/update-live-policy';
export {
  liveEstimateLimits,
  maximumPolicyStatesListed,
  policyUpdateJobKind,
  type LivePolicyValuesDto,
  type PolicyStateSummaryDto,
  type PolicyVersionDto,
} from './schemas';
