/**
 * The personalised policy's statistical model (decision record 021).
 *
 * Reward r of a decision with context features x (see `contextFeatures`), action A (0 = no message,
 * 1 + arm) and action probabilities p (p[0] = no message) is modelled per persona as
 *
 *   r = x·β + Σ_a (1{A=a} − p_a)·α_a + (S − π)·(x₋·γ) + Σ_c u_c·δ_{patient,c} + ε,   ε ~ N(0, σ²)
 *
 * where S = 1{A ≠ 0}, π = 1 − p_0, x₋ is x without its intercept and u_c = Σ_{a in category c}(1{A=a} − p_a).
 * The advantage of arm a over no message for a patient is α_a + x₋·γ + δ_{patient,category(a)}. Centring
 * the action indicators on their probabilities (action centring, Greenewald et al. 2017) makes the
 * advantage estimates unbiased even though the baseline x·β is crude: the centred terms are uncorrelated
 * with anything known before the decision.
 *
 * Partial pooling: (β, α, γ) has a Gaussian posterior per persona (conjugate, with known noise variance
 * σ²). A patient's offsets δ_{patient,c} (one per message category: 10 numbers per patient) have prior
 * N(0, τ²) around the persona — a new patient decides exactly as their persona — and a diagonal Gaussian
 * posterior fitted to the residuals against the persona's mean (a mean-field, backfitting approximation
 * that keeps 100,000 patients cheap). τ² is estimated from the patients' offsets (empirical Bayes).
 */
import { armCount, messageCategories, messageFramings } from '@/engine/policy/message-arms';

/** Baseline features: intercept, message load, supply running low, weekend. */
export const featureCount = 4;
export const categoryCount = messageCategories.length;
/** β (featureCount) + α (armCount) + γ (featureCount − 1). */
export const parameterCount = featureCount + armCount + featureCount - 1;
export const alphaOffset = featureCount;
export const gammaOffset = featureCount + armCount;

/** Category of each arm (arm index → category index). */
export const armCategory: readonly number[] = Array.from({ length: armCount }, (_, arm) => Math.floor(arm / messageFramings.length));

/**
 * Prior standard deviations. Rewards are shares of doses (0–1), so the baseline may be anything in that
 * range; a message moves the confirmed share by a few points at most (Thakkar 2016), so advantages start
 * at 0 ± 0.05 — wide enough to learn from, narrow enough not to chase noise in the first days.
 */
export const priorScale = { baseline: 1, advantage: 0.05, modulation: 0.05, patientOffset: 0.03 } as const;

/** Variance of a day's observed reward around the model: a share of 1–4 doses confirmed is noisy. */
export const noiseVariance = 0.1;

/** Smallest patient-offset variance empirical Bayes may settle on (keeps a patient from being frozen to the persona). */
export const minimumOffsetVariance = 0.0001;
