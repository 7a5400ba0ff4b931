/**
 * The trial feature (issue 14). Server-only use cases; the browser-safe parts (contracts.ts, protocol.ts,
 * schemas.ts, parse-trial-outcomes-csv.ts) are imported from their own files by client components and the CLI.
 */

// stats
export {
  parseTrialOutcomesCsv,
  trialOutcomesCsvColumns,
  type ParsedTrialOutcomesCsv,
  type TrialOutcomesCsvProblem,
} from './parse-trial-outcomes-csv';

// enrol
export { createTrial, notAllowedToManageMessage } from './server/create-trial';
export { enrolTrialParticipant, recruitmentClosedMessage, type TrialEnrolmentResult } from './server/enrol-trial-participant';
export { getTrialOverview } from './server/get-trial-overview';
export { getTrialParticipation } from './server/get-trial-participation';
export { candidateLimit, listTrialCandidates, notAllowedToAssessMessage } from './server/list-trial-candidates';
export { listTrialParticipants, notAllowedToListMessage } from './server/list-trial-participants';
export { recordTrialExclusion } from './server/record-trial-exclusion';
export { recordTrialExit } from './server/record-trial-exit';
export { analysisPlanFrozenMessage, updateTrialAnalysisPlan } from './server/update-trial-analysis-plan';
export * from './contracts';
export * from './protocol';
export * from './schemas';

// page
export { listTrials, type TrialSummary } from './server/list-trials';
export { sampleSizeInputSchema, sampleSizeOf, type SampleSizeAnswer, type SampleSizeInput } from './sample-size';

// outcomes
export { analysisDatasetCsv, trialOutcomeRows, type TrialAnalysisRow, type TrialOutcomeRows } from './analysis-dataset';
export { buildTrialAnalysisDataset, type TrialAnalysisDataset } from './server/build-trial-analysis-dataset';
export { getTrialResults } from './server/get-trial-results';
export { exportTrialAnalysisDataset } from './server/export-trial-analysis-dataset';
