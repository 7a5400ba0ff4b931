/** Trial statistics (issue 14): pure, matching scipy/statsmodels (golden vectors to 1e-9 in the tests). */
export type { Interval, TrialAnalysis, TrialOutcomeRow } from './types';
export type { TwoGroupCounts } from './confidence';
export { welchTest, type WelchResult } from './welch';
export { ancova, type AncovaResult } from './ancova';
export { meanInterval } from './mean-interval';
export { wilsonInterval, newcombeDifference } from './proportions';
export { riskRatio, oddsRatio } from './two-by-two';
export { fisherExactP } from './fisher-exact';
export { chiSquareTest } from './chi-square';
export { sampleSizeTwoProportions, sampleSizeTwoMeans } from './sample-size';
export { analyseTrialOutcomes } from './analyse-trial-outcomes';
