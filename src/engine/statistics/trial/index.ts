/** Trial statistics (issue 14): pure, matching scipy/statsmodels to 1e-6. */
export type { Interval, TrialAnalysis, TrialOutcomeRow } from './types';
