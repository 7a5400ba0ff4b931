/**
 * The baseline the models must beat: risk = 1 − the share of doses confirmed in the last 30 days (the
 * "last-30-day adherence" rule). Its score is read as a probability for the Brier score, which is how a
 * clinician would read "70% adherence" as "30% risk".
 */
import { featureCount } from './features';

export function predictLast30Day(features: Float64Array): Float64Array {
  const rows = features.length / featureCount;
  const out = new Float64Array(rows);
  // Column 2 is `confirmed-30`; column 4 flags no doses due (no evidence: the cohort's middle, 0.5).
  for (let r = 0; r < rows; r += 1) out[r] = features[r * featureCount + 4] === 1 ? 0.5 : 1 - features[r * featureCount + 2]!;
  return out;
}
