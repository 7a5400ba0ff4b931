/** A score's top reasons in words: the logistic model's largest pushes towards risk for this patient. */
import { featureSpecs } from './features';
import { contributions, type LogisticModel } from './logistic';

export type RiskReason = { feature: string; words: string; /** Change in log-odds against the average patient-week. */ weight: number };

export function explainRisk(model: LogisticModel, features: Float64Array, count = 3): RiskReason[] {
  return contributions(model, features)
    .map((weight, index) => ({ feature: featureSpecs[index]!.name, words: featureSpecs[index]!.words, weight }))
    .filter((reason) => reason.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, count);
}
