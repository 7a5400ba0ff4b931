/**
 * The ONE feature function of the risk model: training, evaluation and scoring all call
 * `computeFeatures(history, boundary)`, which reads only the days before `boundary` (a day index at a week
 * boundary) and dispensings dated before it, so a feature can never see the week it predicts.
 */
import { conditions } from '@/engine/simulation/conditions';
import { ageBands, personas } from '@/engine/simulation/personas';
import type { PatientHistory } from './history';

/** Dose-level adherence below this over the next 7 days is the outcome the model predicts. */
export const nonAdherenceThreshold = 0.8;
export const labelDays = 7;
/** The longest look-back a feature uses; earlier boundaries lack a full window and are not used. */
export const lookBackDays = 30;

type FeatureSpec = { name: string; words: string };

const numericFeatures: FeatureSpec[] = [
  { name: 'confirmed-7', words: 'share of doses confirmed in the last 7 days' },
  { name: 'confirmed-14', words: 'share of doses confirmed in the last 14 days' },
  { name: 'confirmed-30', words: 'share of doses confirmed in the last 30 days' },
  { name: 'confirmed-trend', words: 'change in confirmations: last 7 days against last 30' },
  { name: 'no-doses-30', words: 'no doses scheduled in the last 30 days' },
  { name: 'supply-left', words: 'days of supply left' },
  { name: 'out-of-supply', words: 'no supply left' },
  { name: 'uncovered-30', words: 'days without supply in the last 30 days' },
  { name: 'late-refills-90', words: 'late refills in the last 90 days' },
  { name: 'reply-rate-28', words: 'share of messages answered in the last 28 days' },
  { name: 'days-since-reply', words: 'days since the last reply' },
  { name: 'opted-out', words: 'opted out of messages' },
  { name: 'messages-7', words: 'messages received in the last 7 days' },
  { name: 'messages-28', words: 'messages received in the last 28 days' },
  { name: 'products', words: 'number of medicines' },
];

export const featureSpecs: readonly FeatureSpec[] = [
  ...numericFeatures,
  ...personas.map((persona) => ({ name: `persona:${persona}`, words: `persona ${persona.replaceAll('-', ' ')}` })),
  ...ageBands.map((band) => ({ name: `age:${band}`, words: `age ${band}` })),
  ...conditions.map((condition) => ({ name: `condition:${condition}`, words: `treated for ${condition.replaceAll('-', ' ')}` })),
];

export const featureCount = featureSpecs.length;
const personaOffset = numericFeatures.length;
const ageOffset = personaOffset + personas.length;
const conditionOffset = ageOffset + ageBands.length;

function windowSum(values: Uint16Array | Uint8Array, boundary: number, days: number): number {
  let total = 0;
  for (let index = Math.max(0, boundary - days); index < boundary; index += 1) total += values[index]!;
  return total;
}

function rate(confirmed: number, scheduled: number): number {
  return scheduled === 0 ? 0 : confirmed / scheduled;
}

/**
 * Supply per product from its dispensings before the boundary (supply carried over when a fill comes early):
 * the fewest days left across products, the mean uncovered days in the last 30, and the refills that came
 * after the previous supply had run out in the last 90 days. A product's coverage starts at its first fill.
 */
function supplyFeatures(history: PatientHistory, boundary: number): { left: number; uncovered: number; lateRefills: number } {
  const boundaryDay = history.startDay + boundary;
  const byProduct = new Map<string, { coveredUntil: number; uncovered: number }>();
  let lateRefills = 0;
  const windowStart = boundaryDay - lookBackDays;
  for (const dispensing of history.dispensings) {
    if (dispensing.day >= boundaryDay) break;
    const state = byProduct.get(dispensing.productId);
    if (state === undefined) {
      byProduct.set(dispensing.productId, { coveredUntil: dispensing.day + dispensing.daysSupply, uncovered: 0 });
      continue;
    }
    if (dispensing.day > state.coveredUntil) {
      if (dispensing.day >= boundaryDay - 90) lateRefills += 1;
      // Uncovered days of this gap that fall inside the 30-day window.
      state.uncovered += Math.max(0, dispensing.day - Math.max(state.coveredUntil, windowStart));
    }
    state.coveredUntil = Math.max(state.coveredUntil, dispensing.day) + dispensing.daysSupply;
  }
  if (byProduct.size === 0) return { left: 0, uncovered: 0, lateRefills: 0 };
  let left = Infinity;
  let uncovered = 0;
  for (const state of byProduct.values()) {
    left = Math.min(left, Math.max(0, state.coveredUntil - boundaryDay));
    // The gap still open at the boundary.
    uncovered += state.uncovered + Math.max(0, boundaryDay - Math.max(state.coveredUntil, windowStart));
  }
  return { left, uncovered: uncovered / byProduct.size, lateRefills };
}

/**
 * Features as of the start of day index `boundary`, from days [0, boundary) only. Scaled to roughly unit
 * ranges; the models standardise them again on the training rows.
 */
export function computeFeatures(history: PatientHistory, boundary: number): Float64Array {
  if (!Number.isInteger(boundary) || boundary < 0 || boundary > history.dayCount) {
    throw new RangeError(`boundary must be a day index from 0 to ${history.dayCount}, got ${boundary}`);
  }
  const features = new Float64Array(featureCount);
  const scheduled7 = windowSum(history.scheduled, boundary, 7);
  const scheduled14 = windowSum(history.scheduled, boundary, 14);
  const scheduled30 = windowSum(history.scheduled, boundary, 30);
  const confirmed7 = rate(windowSum(history.confirmed, boundary, 7), scheduled7);
  const confirmed30 = rate(windowSum(history.confirmed, boundary, 30), scheduled30);
  features[0] = confirmed7;
  features[1] = rate(windowSum(history.confirmed, boundary, 14), scheduled14);
  features[2] = confirmed30;
  features[3] = confirmed7 - confirmed30;
  features[4] = scheduled30 === 0 ? 1 : 0;
  const supply = supplyFeatures(history, boundary);
  features[5] = Math.min(supply.left, 90) / 30;
  features[6] = supply.left === 0 ? 1 : 0;
  features[7] = supply.uncovered / lookBackDays;
  features[8] = supply.lateRefills;
  const outbound28 = windowSum(history.outbound, boundary, 28);
  features[9] = outbound28 === 0 ? 0 : Math.min(1, windowSum(history.replies, boundary, 28) / outbound28);
  let sinceReply = 60;
  for (let index = boundary - 1; index >= Math.max(0, boundary - 60); index -= 1) {
    if (history.replies[index]! > 0) {
      sinceReply = boundary - 1 - index;
      break;
    }
  }
  features[10] = sinceReply / 60;
  features[11] = windowSum(history.optOuts, boundary, boundary) > 0 ? 1 : 0;
  features[12] = windowSum(history.outbound, boundary, 7) / 7;
  features[13] = outbound28 / 28;
  features[14] = history.patient.productCount;
  const { persona, ageBand } = history.patient;
  if (persona !== null) features[personaOffset + personas.indexOf(persona)] = 1;
  if (ageBand !== null) features[ageOffset + ageBands.indexOf(ageBand)] = 1;
  for (const condition of history.patient.conditions) features[conditionOffset + conditions.indexOf(condition)] = 1;
  return features;
}

/** 1 when dose-level adherence over the 7 days from `boundary` is below 0.8, 0 otherwise; null when no dose is due or the days are not all recorded. */
export function computeLabel(history: PatientHistory, boundary: number): 0 | 1 | null {
  if (boundary + labelDays > history.dayCount) return null;
  let scheduled = 0;
  let confirmed = 0;
  for (let index = boundary; index < boundary + labelDays; index += 1) {
    scheduled += history.scheduled[index]!;
    confirmed += history.confirmed[index]!;
  }
  if (scheduled === 0) return null;
  return confirmed / scheduled < nonAdherenceThreshold ? 1 : 0;
}
