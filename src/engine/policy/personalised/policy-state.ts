/**
 * The policy's state (JSON, stored in policy_states.state), its in-memory form, and the batch update.
 * model.ts states the model; this module only does its algebra.
 */
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import type { DecisionContext } from '@/engine/policy/contract';
import { armCount } from '@/engine/policy/message-arms';
import { personas, type Persona } from '@/engine/simulation/personas';
import { contextFeatures, createFeatureBuffer } from './features';
import {
  armCategory,
  armFraming,
  categoryCount,
  categoryOffset,
  contentCount,
  featureCount,
  framingOffset,
  gammaOffset,
  minimumOffsetVariance,
  noiseVariance,
  parameterCount,
  priorScale,
} from './model';
import { confirmationsNeedMessage } from './observed-reward';
import { resolveSettings, type PersonalisedSettings } from './settings';

/** 2: content as category + framing effects (1 had one effect per arm). */
export const policyStateVersionFormat = 2;

/** One persona's posterior in natural parameters: precision Λ (row-major D×D) and Λμ. */
export type PersonaPosteriorState = {
  precision: number[];
  precisionMean: number[];
  /** Decisions learned from, by action (index 0 = no message, 1 + arm). */
  observations: number[];
  /** τ²: variance of patients' offsets around the persona (empirical Bayes). */
  offsetVariance: number;
};

export type PolicyState = {
  /** Format of this object, so a later format can read or reject an older one. */
  format: number;
  /** Incremented by every update; the policy's version is its string. */
  version: number;
  /** Decisions learned from, in all versions up to this one. */
  decisionsUsed: number;
  /** Decisions not learned from: doses confirmed only through replies (observed-reward.ts). */
  decisionsSkipped: number;
  personas: Record<Persona, PersonaPosteriorState>;
  /**
   * Per patient: [persona index, then per message category the offset's data precision, then per
   * category the data precision × mean]. 11 numbers; patients with no learned day are absent.
   */
  patients: Record<string, number[]>;
};

export type LoggedDecision = {
  patientId: string;
  persona: Persona;
  context: DecisionContext;
  /** 0 = no message, 1 + armIndex. */
  action: number;
  propensity: number;
  observedReward: number;
  /** Every action's probability when the decision was made (policy_decisions.arm_probabilities); see `centringProbabilities`. */
  armProbabilities?: readonly number[] | null;
};

export const patientRecordLength = 1 + 2 * categoryCount;

function priorPrecision(): number[] {
  const precision = new Array<number>(parameterCount * parameterCount).fill(0);
  for (let index = 0; index < parameterCount; index += 1) {
    const scale = index < categoryOffset ? priorScale.baseline : index < gammaOffset ? priorScale.content : priorScale.modulation;
    precision[index * parameterCount + index] = 1 / (scale * scale);
  }
  return precision;
}

/** The prior: every persona's arms at 0 ± 0.05 (category and framing ± 0.035 each), no patient learned yet. Settings are validated (they do not change the prior). */
export function createPolicyState(options: { settings?: Partial<PersonalisedSettings> } = {}): PolicyState {
  resolveSettings(options.settings);
  const personaStates = {} as Record<Persona, PersonaPosteriorState>;
  for (const persona of personas) {
    personaStates[persona] = {
      precision: priorPrecision(),
      precisionMean: new Array<number>(parameterCount).fill(0),
      observations: new Array<number>(armCount + 1).fill(0),
      offsetVariance: priorScale.patientOffset ** 2,
    };
  }
  return { format: policyStateVersionFormat, version: 1, decisionsUsed: 0, decisionsSkipped: 0, personas: personaStates, patients: {} };
}

// ---------------------------------------------------------------------------------------------------------
// In-memory form: typed arrays, the posterior mean and covariance solved once per update.
// ---------------------------------------------------------------------------------------------------------

export type PersonaPosterior = {
  precision: Float64Array;
  precisionMean: Float64Array;
  observations: Float64Array;
  offsetVariance: number;
  mean: Float64Array;
  covariance: Float64Array;
  /** Lower Cholesky factor of the covariance of the content effects κ, φ (contentCount²), for joint Thompson draws. */
  contentCholesky: Float64Array;
  /** Decisions were added since the posterior was last solved. */
  pending: boolean;
};

export type PolicyModel = {
  version: number;
  decisionsUsed: number;
  decisionsSkipped: number;
  /** Decisions added in the batch under way. */
  pendingDecisions: number;
  personas: Record<Persona, PersonaPosterior>;
  patients: Map<string, Float64Array>;
};

export class PosteriorError extends Error {}

/** Solves the posterior mean and covariance from the natural parameters. */
export function solvePosterior(posterior: Pick<PersonaPosterior, 'precision' | 'precisionMean'>): {
  mean: Float64Array;
  covariance: Float64Array;
  contentCholesky: Float64Array;
} {
  const size = parameterCount;
  const precision = new Matrix(size, size);
  for (let row = 0; row < size; row += 1)
    for (let column = 0; column < size; column += 1) precision.set(row, column, posterior.precision[row * size + column]!);
  const cholesky = new CholeskyDecomposition(precision);
  if (!cholesky.isPositiveDefinite()) throw new PosteriorError('the posterior precision is not positive definite');
  const covarianceMatrix = cholesky.solve(Matrix.eye(size));
  const meanMatrix = cholesky.solve(Matrix.columnVector(Array.from(posterior.precisionMean)));
  const covariance = new Float64Array(size * size);
  // Symmetrise: the solve leaves rounding asymmetry that Cholesky of a block would trip on.
  for (let row = 0; row < size; row += 1)
    for (let column = 0; column < size; column += 1)
      covariance[row * size + column] = (covarianceMatrix.get(row, column) + covarianceMatrix.get(column, row)) / 2;
  const mean = new Float64Array(size);
  for (let row = 0; row < size; row += 1) mean[row] = meanMatrix.get(row, 0);
  const content = new Matrix(contentCount, contentCount);
  for (let row = 0; row < contentCount; row += 1)
    for (let column = 0; column < contentCount; column += 1)
      content.set(row, column, covariance[(categoryOffset + row) * size + categoryOffset + column]!);
  const contentDecomposition = new CholeskyDecomposition(content);
  if (!contentDecomposition.isPositiveDefinite())
    throw new PosteriorError('the covariance of the content effects is not positive definite');
  const lower = contentDecomposition.lowerTriangularMatrix;
  const contentCholesky = new Float64Array(contentCount * contentCount);
  for (let row = 0; row < contentCount; row += 1)
    for (let column = 0; column <= row; column += 1) contentCholesky[row * contentCount + column] = lower.get(row, column);
  return { mean, covariance, contentCholesky };
}

export function modelFromState(state: PolicyState): PolicyModel {
  if (state.format !== policyStateVersionFormat)
    throw new RangeError(`policy state format ${state.format} is not supported (expected ${policyStateVersionFormat})`);
  const personaModels = {} as Record<Persona, PersonaPosterior>;
  for (const persona of personas) {
    const stored = state.personas[persona];
    if (stored === undefined) throw new RangeError(`policy state has no posterior for persona ${persona}`);
    if (stored.precision.length !== parameterCount * parameterCount || stored.precisionMean.length !== parameterCount)
      throw new RangeError(`policy state posterior for ${persona} has the wrong size`);
    const precision = Float64Array.from(stored.precision);
    const precisionMean = Float64Array.from(stored.precisionMean);
    personaModels[persona] = {
      precision,
      precisionMean,
      observations: Float64Array.from(stored.observations),
      offsetVariance: stored.offsetVariance,
      ...solvePosterior({ precision, precisionMean }),
      pending: false,
    };
  }
  const patients = new Map<string, Float64Array>();
  for (const [patientId, record] of Object.entries(state.patients)) {
    if (record.length !== patientRecordLength)
      throw new RangeError(`policy state record of a patient has ${record.length} numbers, expected ${patientRecordLength}`);
    patients.set(patientId, Float64Array.from(record));
  }
  return {
    version: state.version,
    decisionsUsed: state.decisionsUsed,
    decisionsSkipped: state.decisionsSkipped,
    pendingDecisions: 0,
    personas: personaModels,
    patients,
  };
}

export function stateFromModel(model: PolicyModel): PolicyState {
  const personaStates = {} as Record<Persona, PersonaPosteriorState>;
  for (const persona of personas) {
    const posterior = model.personas[persona];
    personaStates[persona] = {
      precision: Array.from(posterior.precision),
      precisionMean: Array.from(posterior.precisionMean),
      observations: Array.from(posterior.observations),
      offsetVariance: posterior.offsetVariance,
    };
  }
  const patientStates: Record<string, number[]> = {};
  for (const [patientId, record] of model.patients) patientStates[patientId] = Array.from(record);
  return {
    format: policyStateVersionFormat,
    version: model.version,
    decisionsUsed: model.decisionsUsed,
    decisionsSkipped: model.decisionsSkipped,
    personas: personaStates,
    patients: patientStates,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The batch update
// ---------------------------------------------------------------------------------------------------------

/**
 * The probabilities to centre the action indicators on. Logged decisions carry every action's probability;
 * without them (an old log), the chosen action's propensity is known and the rest of the mass is spread
 * evenly over the other actions — an approximation that only weakens centring, not the data.
 */
function centringProbabilities(decision: LoggedDecision, out: Float64Array): Float64Array {
  const logged = decision.armProbabilities;
  if (logged !== undefined && logged !== null && logged.length === armCount + 1) {
    for (let index = 0; index <= armCount; index += 1) out[index] = logged[index] ?? 0;
    return out;
  }
  const rest = (1 - decision.propensity) / armCount;
  for (let index = 0; index <= armCount; index += 1) out[index] = index === decision.action ? decision.propensity : rest;
  return out;
}

const scratch = {
  features: createFeatureBuffer(),
  probabilities: new Float64Array(armCount + 1),
  design: new Float64Array(parameterCount),
  categoryDesign: new Float64Array(categoryCount),
};

/** The design row z of a decision (model.ts) and the per-category centred indicators u. */
function designRow(decision: LoggedDecision): { design: Float64Array; categoryDesign: Float64Array } {
  const { features, probabilities, design, categoryDesign } = scratch;
  contextFeatures(decision.context, features);
  centringProbabilities(decision, probabilities);
  for (let index = 0; index < featureCount; index += 1) design[index] = features[index]!;
  categoryDesign.fill(0);
  for (let index = categoryOffset; index < gammaOffset; index += 1) design[index] = 0;
  for (let arm = 0; arm < armCount; arm += 1) {
    const centred = (decision.action === arm + 1 ? 1 : 0) - probabilities[arm + 1]!;
    categoryDesign[armCategory[arm]!]! += centred;
    design[framingOffset + armFraming[arm]!]! += centred;
  }
  for (let category = 0; category < categoryCount; category += 1) design[categoryOffset + category] = categoryDesign[category]!;
  const sendCentred = (decision.action === 0 ? 0 : 1) - (1 - probabilities[0]!);
  for (let index = 1; index < featureCount; index += 1) design[gammaOffset + index - 1] = sendCentred * features[index]!;
  return { design, categoryDesign };
}

function isLearnable(decision: LoggedDecision): boolean {
  return (
    !confirmationsNeedMessage(decision.context.features.doseObserver) &&
    Number.isFinite(decision.observedReward) &&
    Number.isInteger(decision.action) &&
    decision.action >= 0 &&
    decision.action <= armCount
  );
}

const personaIndex = new Map<Persona, number>(personas.map((persona, index) => [persona, index]));

/** Fewer patients with data than this, and τ² stays where it is: too few to estimate a spread from. */
const minimumPatientsForSpread = 50;

/**
 * Adds one decision to the batch under way: the persona's sufficient statistics (upper triangle,
 * mirrored when the batch ends) and the patient's offset statistics, from the residual against the
 * persona's mean as it was when the batch began (the posterior decisions were drawn from). The solved
 * posterior that decisions use changes only in `finishBatch`. Returns whether the decision was learnable.
 */
export function accumulateDecision(model: PolicyModel, decision: LoggedDecision): boolean {
  if (!isLearnable(decision)) {
    model.decisionsSkipped += 1;
    return false;
  }
  const posterior = model.personas[decision.persona];
  if (posterior === undefined) throw new RangeError(`unknown persona ${decision.persona}`);
  const size = parameterCount;
  const inverseNoise = 1 / noiseVariance;
  const { design, categoryDesign } = designRow(decision);
  const { precision, precisionMean, mean } = posterior;
  const reward = decision.observedReward;
  let prediction = 0;
  for (let row = 0; row < size; row += 1) {
    const value = design[row]!;
    if (value === 0) continue;
    prediction += value * mean[row]!;
    const scaled = value * inverseNoise;
    precisionMean[row]! += scaled * reward;
    const offset = row * size;
    for (let column = row; column < size; column += 1) precision[offset + column]! += scaled * design[column]!;
  }
  posterior.observations[decision.action]! += 1;
  posterior.pending = true;

  const residual = reward - prediction;
  let record = model.patients.get(decision.patientId);
  if (record === undefined) {
    record = new Float64Array(patientRecordLength);
    record[0] = personaIndex.get(decision.persona) ?? 0;
    model.patients.set(decision.patientId, record);
  }
  for (let category = 0; category < categoryCount; category += 1) {
    const value = categoryDesign[category]!;
    record[1 + category]! += value * value * inverseNoise;
    record[1 + categoryCount + category]! += value * residual * inverseNoise;
  }
  model.decisionsUsed += 1;
  model.pendingDecisions += 1;
  return true;
}

/** Ends a batch: solves the personas' posteriors, re-estimates τ², and moves to the next version. */
export function finishBatch(model: PolicyModel): void {
  const size = parameterCount;
  for (const persona of personas) {
    const posterior = model.personas[persona];
    if (!posterior.pending) continue;
    const { precision } = posterior;
    for (let row = 0; row < size; row += 1)
      for (let column = row + 1; column < size; column += 1) precision[column * size + row] = precision[row * size + column]!;
    Object.assign(posterior, solvePosterior(posterior));
    posterior.pending = false;
  }

  // Empirical Bayes: one EM step for τ² per persona, from the patients with data.
  if (model.pendingDecisions > 0) {
    const sums = new Float64Array(personas.length);
    const counts = new Float64Array(personas.length);
    for (const record of model.patients.values()) {
      const index = record[0]!;
      const persona = personas[index];
      if (persona === undefined) continue;
      const prior = 1 / model.personas[persona].offsetVariance;
      for (let category = 0; category < categoryCount; category += 1) {
        const dataPrecision = record[1 + category]!;
        if (dataPrecision === 0) continue;
        const posteriorPrecision = dataPrecision + prior;
        const offsetMean = record[1 + categoryCount + category]! / posteriorPrecision;
        sums[index]! += offsetMean * offsetMean + 1 / posteriorPrecision;
        counts[index]! += 1;
      }
    }
    personas.forEach((persona, index) => {
      const count = counts[index]!;
      if (count < minimumPatientsForSpread) return;
      const estimate = sums[index]! / count;
      model.personas[persona].offsetVariance = Math.min(4 * priorScale.patientOffset ** 2, Math.max(minimumOffsetVariance, estimate));
    });
  }
  model.pendingDecisions = 0;
  model.version += 1;
}

/** Updates `model` in place with a batch of decisions (the nightly or daily update). */
export function updateModel(model: PolicyModel, decisions: readonly LoggedDecision[]): void {
  for (const decision of decisions) accumulateDecision(model, decision);
  finishBatch(model);
}

/** The nightly batch update: a new state, version + 1. Pure: `state` is not changed. */
export function updatePolicyState(
  state: PolicyState,
  decisions: readonly LoggedDecision[],
  settings?: Partial<PersonalisedSettings>,
): PolicyState {
  // The update does not depend on the settings (they shape decisions); invalid ones are still refused.
  resolveSettings(settings);
  const model = modelFromState(state);
  updateModel(model, decisions);
  return stateFromModel(model);
}
