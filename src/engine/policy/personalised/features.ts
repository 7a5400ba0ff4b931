/** The context features the policy's linear model uses (model.ts): all observable at decision time. */
import type { DecisionContext } from '@/engine/policy/contract';
import { featureCount } from './model';

/** Days of supply at or below which a refill is near (the product's estimate, which assumes every dose was taken). */
const lowSupplyDays = 7;

export const featureNames = ['intercept', 'message load (last 7 days ÷ 7)', 'supply ≤ 7 days', 'weekend'] as const;

/** Writes the features of `context` into `out` (length `featureCount`), without allocating. */
export function contextFeatures(context: DecisionContext, out: Float64Array): Float64Array {
  out[0] = 1;
  out[1] = Math.min(1, context.messageCounts.last7Days / 7);
  out[2] = context.recentHistory.estimatedDaysOfSupplyLeft <= lowSupplyDays ? 1 : 0;
  out[3] = context.weekday === 0 || context.weekday === 6 ? 1 : 0;
  return out;
}

export function createFeatureBuffer(): Float64Array {
  return new Float64Array(featureCount);
}
