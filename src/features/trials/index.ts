/** What routes, the command line and other features may use of the trials feature (issue 14). */

// stats
export {
  parseTrialOutcomesCsv,
  trialOutcomesCsvColumns,
  type ParsedTrialOutcomesCsv,
  type TrialOutcomesCsvProblem,
} from './parse-trial-outcomes-csv';
