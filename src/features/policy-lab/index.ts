/**
 * The policy lab (docs/decisions/024-policy-lab.md): simulated runs of the personalised policy against a
 * uniform-random and a fixed daily baseline (job kind 'policy-lab-run', queue 'simulations'), read by the
 * learning-journey, learning-visualization and adherence-optimization pages. Server-only.
 */
export { getLabRun } from './server/get-lab-run';
export { getLabRunProgress } from './server/get-lab-run-progress';
export { startLabRun } from './server/start-lab-run';
export {
  defaultLabRunInput,
  labRunInputSchema,
  labRunJobKind,
  type LabRun,
  type LabRunInput,
  type LabRunProgress,
  type LabSummary,
} from './schemas';
