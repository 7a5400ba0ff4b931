/** What routes, the command line and other features may use of the trials feature (issue 14). */

// stats
export {
  parseTrialOutcomesCsv,
  trialOutcomesCsvColumns,
  type ParsedTrialOutcomesCsv,
  type TrialOutcomesCsvProblem,
} from './parse-trial-outcomes-csv';

// outcomes
export { ADHERENT_THRESHOLD, analysisDatasetCsv, trialOutcomeRows, type TrialAnalysisRow, type TrialOutcomeRows } from './analysis-dataset';
export { trialStatus, type TrialStatusParticipant } from './trial-status';
export { buildTrialAnalysisDataset, type TrialAnalysisDataset } from './server/build-trial-analysis-dataset';
export { getTrialResults } from './server/get-trial-results';
export { exportTrialAnalysisDataset } from './server/export-trial-analysis-dataset';
