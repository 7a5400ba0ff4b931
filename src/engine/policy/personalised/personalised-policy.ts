/**
 * The personalised policy: contextual Thompson sampling over the message arms and "no message", with
 * smooth allocation so that every action's probability is known exactly and logged (decision record 021).
 *
 * Per decision: one joint draw of the content effects from the persona's posterior plus the patient's
 * offsets (normal draws are the policy's seeded uniforms through the normal quantile, so the same seed
 * gives the same decisions) picks the candidate arm b: the best category with the best framing. The chance of sending is the posterior probability
 * that b's advantage in this context beats the burden of recent messages, kept within [floor, ceiling].
 * If sending, b gets most of the mass and every arm a little (arm exploration). The action is then drawn
 * from these probabilities with one more uniform, so the logged propensity is exactly the probability
 * with which the action was chosen, given the Thompson draw.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import type { DecisionContext, MessagingPolicy, PolicyChoice, PolicyFeedback, RandomSource } from '@/engine/policy/contract';
import { armCount, armIndex, messageCategories, messageFramings, type MessageArm } from '@/engine/policy/message-arms';
import { contextFeatures, createFeatureBuffer } from './features';
import {
  categoryCount,
  categoryOffset,
  contentCount,
  featureCount,
  framingCount,
  framingOffset,
  gammaOffset,
  parameterCount,
} from './model';
import {
  accumulateDecision,
  createPolicyState,
  finishBatch,
  modelFromState,
  stateFromModel,
  type LoggedDecision,
  type PolicyModel,
  type PolicyState,
} from './policy-state';
import { inQuietHours, resolveSettings, type PersonalisedSettings } from './settings';

export const personalisedPolicyName = 'personalised';

/** Share of the sending probability spread evenly over all arms, so every arm stays estimable. */
export const armExploration = 0.1;

/** How long before the first dose of the day a message is timed: read in time, not yet forgotten (message-response.ts). */
const minutesBeforeFirstDose = 45;

export type PersonalisedPolicy = MessagingPolicy & {
  state(): PolicyState;
  endDay(dayIndex: number): void;
};

/** The arms in index order (1 + armIndex in action numbering). */
export const arms: readonly MessageArm[] = messageCategories.flatMap((category) =>
  messageFramings.map((framing) => ({ category, framing })),
);

/** Standard normal cumulative distribution (Abramowitz & Stegun 7.1.26 via erf; absolute error < 1.5e-7). */
export function standardNormalCdf(value: number): number {
  const x = Math.abs(value) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return value >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** A standard normal draw from one uniform: the quantile transform, kept off the infinite tails. */
function standardNormal(random: RandomSource): number {
  const uniform = Math.min(1 - 1e-12, Math.max(1e-12, random()));
  return normalQuantile(uniform, 0, 1);
}

/** When to send: shortly before the first dose, moved out of quiet hours. */
export function messageMinute(context: DecisionContext, quietHours: PersonalisedSettings['quietHours']): number {
  let minute = Math.max(0, context.firstDoseMinute - minutesBeforeFirstDose);
  if (quietHours !== null && inQuietHours(minute, quietHours)) minute = quietHours.endMinute;
  return minute;
}

type Scratch = {
  features: Float64Array;
  normals: Float64Array;
  offsetMeans: Float64Array;
  offsetVariances: Float64Array;
  contentDraws: Float64Array;
  weights: Float64Array;
  indices: Int32Array;
};

function createScratch(): Scratch {
  return {
    features: createFeatureBuffer(),
    normals: new Float64Array(contentCount),
    offsetMeans: new Float64Array(categoryCount),
    offsetVariances: new Float64Array(categoryCount),
    contentDraws: new Float64Array(contentCount),
    weights: new Float64Array(2 + featureCount),
    indices: new Int32Array(2 + featureCount),
  };
}

/** Every action's probability for this decision (index 0 = no message, 1 + arm), from one Thompson draw. */
export function actionProbabilities(
  model: PolicyModel,
  settings: PersonalisedSettings,
  context: DecisionContext,
  random: RandomSource,
  scratch: Scratch = createScratch(),
): number[] {
  const probabilities = new Array<number>(armCount + 1).fill(0);
  if (context.messageCounts.last7Days >= settings.messagesPerWeekCap) {
    probabilities[0] = 1;
    return probabilities;
  }
  const posterior = model.personas[context.persona];
  if (posterior === undefined) throw new RangeError(`unknown persona ${context.persona}`);
  const { features, normals, offsetMeans, offsetVariances, contentDraws, weights, indices } = scratch;
  contextFeatures(context, features);
  const { mean, covariance, contentCholesky } = posterior;

  // The patient's offsets: posterior around the persona (prior N(0, τ²)).
  const record = model.patients.get(context.patientId);
  const priorPrecision = 1 / posterior.offsetVariance;
  for (let category = 0; category < categoryCount; category += 1) {
    const precision = (record?.[1 + category] ?? 0) + priorPrecision;
    offsetMeans[category] = (record?.[1 + categoryCount + category] ?? 0) / precision;
    offsetVariances[category] = 1 / precision;
  }

  // Thompson draw of the arms' advantages: the content effects jointly from the persona's posterior, plus
  // the patient's offset per category. The context term x₋·γ is common to all arms, so it does not change
  // which arm is best.
  for (let index = 0; index < contentCount; index += 1) normals[index] = standardNormal(random);
  for (let index = 0; index < contentCount; index += 1) {
    let value = mean[categoryOffset + index]!;
    const row = index * contentCount;
    for (let column = 0; column <= index; column += 1) value += contentCholesky[row + column]! * normals[column]!;
    contentDraws[index] = value;
  }
  let bestCategory = 0;
  let bestCategoryValue = -Infinity;
  for (let category = 0; category < categoryCount; category += 1) {
    const value = contentDraws[category]! + offsetMeans[category]! + Math.sqrt(offsetVariances[category]!) * standardNormal(random);
    if (value > bestCategoryValue) {
      bestCategoryValue = value;
      bestCategory = category;
    }
  }
  let bestFraming = 0;
  for (let framing = 1; framing < framingCount; framing += 1)
    if (contentDraws[categoryCount + framing]! > contentDraws[categoryCount + bestFraming]!) bestFraming = framing;
  const best = bestCategory * framingCount + bestFraming;

  // Posterior probability that the candidate's advantage here beats the burden of recent messages:
  // the advantage is linear in the parameters, weights w on (κ_c, φ_f, γ), plus the patient's offset.
  const categoryIndex = categoryOffset + bestCategory;
  const framingIndex = framingOffset + bestFraming;
  weights[0] = 1;
  indices[0] = categoryIndex;
  weights[1] = 1;
  indices[1] = framingIndex;
  let terms = 2;
  for (let index = 1; index < featureCount; index += 1) {
    if (features[index] === 0) continue;
    weights[terms] = features[index]!;
    indices[terms] = gammaOffset + index - 1;
    terms += 1;
  }
  let advantageMean = offsetMeans[bestCategory]!;
  let advantageVariance = offsetVariances[bestCategory]!;
  for (let term = 0; term < terms; term += 1) {
    const row = indices[term]!;
    advantageMean += weights[term]! * mean[row]!;
    for (let other = 0; other < terms; other += 1)
      advantageVariance += weights[term]! * weights[other]! * covariance[row * parameterCount + indices[other]!]!;
  }
  const burden = (settings.burdenWeight * context.messageCounts.last7Days) / 7;
  const sendProbability = Math.min(
    settings.sendProbabilityCeiling,
    Math.max(settings.sendProbabilityFloor, standardNormalCdf((advantageMean - burden) / Math.sqrt(Math.max(advantageVariance, 1e-12)))),
  );
  probabilities[0] = 1 - sendProbability;
  const spread = (sendProbability * armExploration) / armCount;
  for (let arm = 0; arm < armCount; arm += 1) probabilities[arm + 1] = spread;
  probabilities[best + 1] = spread + sendProbability * (1 - armExploration);
  return probabilities;
}

/** Draws the action from its probabilities with one uniform. */
function drawAction(probabilities: readonly number[], uniform: number): number {
  let threshold = uniform;
  for (let action = 0; action < probabilities.length; action += 1) {
    threshold -= probabilities[action]!;
    if (threshold < 0) return action;
  }
  // Rounding left the uniform past the total: the last action with any probability.
  for (let action = probabilities.length - 1; action >= 0; action -= 1) if (probabilities[action]! > 0) return action;
  return 0;
}

export function createPersonalisedPolicy(
  options: { state?: PolicyState; settings?: Partial<PersonalisedSettings> } = {},
): PersonalisedPolicy {
  const settings = resolveSettings(options.settings);
  const model = modelFromState(options.state ?? createPolicyState());
  const scratch = createScratch();
  // One reused record: learn() reads the feedback into it, so a day's feedback allocates nothing.
  const logged: LoggedDecision = {
    patientId: '',
    persona: 'busy-professional',
    context: null as unknown as DecisionContext,
    action: 0,
    propensity: 1,
    observedReward: 0,
    armProbabilities: null,
  };

  return {
    name: personalisedPolicyName,
    get version() {
      return String(model.version);
    },
    decide(context: DecisionContext, random: RandomSource): PolicyChoice {
      const probabilities = actionProbabilities(model, settings, context, random, scratch);
      const action = drawAction(probabilities, random());
      const propensity = probabilities[action]!;
      if (action === 0) return { kind: 'no-message', propensity, armProbabilities: probabilities };
      return {
        kind: 'message',
        arm: arms[action - 1]!,
        minuteOfDay: messageMinute(context, settings.quietHours),
        propensity,
        armProbabilities: probabilities,
      };
    },
    // Feedback goes straight into the batch's sufficient statistics (nothing is buffered); the posterior
    // that decisions draw from moves only when the day ends, so this is the same daily batch update as
    // `updatePolicyState` over the day's decisions.
    learn(feedback: PolicyFeedback): void {
      const { choice, context } = feedback;
      logged.patientId = context.patientId;
      logged.persona = context.persona;
      logged.context = context;
      logged.action = choice.kind === 'no-message' ? 0 : 1 + armIndex(choice.arm.category, choice.arm.framing);
      logged.propensity = choice.propensity;
      logged.observedReward = feedback.observedReward;
      logged.armProbabilities = choice.armProbabilities ?? null;
      accumulateDecision(model, logged);
    },
    endDay(): void {
      finishBatch(model);
    },
    state: () => stateFromModel(model),
  };
}
