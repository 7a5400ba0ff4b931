/** Per persona and arm, the posterior of the arm's advantage over no message (for the pages). */
import { armCount, type MessageCategory, type MessageFraming } from '@/engine/policy/message-arms';
import { personas, type Persona } from '@/engine/simulation/personas';
import { armCategory, armFraming, categoryOffset, framingOffset, parameterCount } from './model';
import { arms } from './personalised-policy';
import { modelFromState, type PolicyState } from './policy-state';

export type PosteriorSummaryRow = {
  persona: Persona;
  /** Action index: 1 + armIndex(category, framing). */
  arm: number;
  category: MessageCategory;
  framing: MessageFraming;
  /** Advantage in observed-reward units (share of doses confirmed), on a weekday with no message in the last week and supply in hand. */
  mean: number;
  /** 95% credible interval. */
  lower: number;
  upper: number;
  /** Decisions that chose this arm, learned from. */
  observations: number;
};

export type PosteriorSummary = PosteriorSummaryRow[];

const z95 = 1.959964;

export function summarisePosterior(state: PolicyState): PosteriorSummary {
  const model = modelFromState(state);
  const rows: PosteriorSummary = [];
  for (const persona of personas) {
    const posterior = model.personas[persona];
    for (let arm = 0; arm < armCount; arm += 1) {
      // Advantage of arm (c, f) = κ_c + φ_f.
      const categoryIndex = categoryOffset + armCategory[arm]!;
      const framingIndex = framingOffset + armFraming[arm]!;
      const { mean: means, covariance } = posterior;
      const mean = means[categoryIndex]! + means[framingIndex]!;
      const variance =
        covariance[categoryIndex * parameterCount + categoryIndex]! +
        covariance[framingIndex * parameterCount + framingIndex]! +
        2 * covariance[categoryIndex * parameterCount + framingIndex]!;
      const halfWidth = z95 * Math.sqrt(variance);
      const { category, framing } = arms[arm]!;
      rows.push({
        persona,
        arm: arm + 1,
        category,
        framing,
        mean,
        lower: mean - halfWidth,
        upper: mean + halfWidth,
        observations: posterior.observations[arm + 1]!,
      });
    }
  }
  return rows;
}
