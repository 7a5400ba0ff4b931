/**
 * The personalised policy's statistical model (decision record 021).
 *
 * Reward r of a decision with context features x (see `contextFeatures`), action A (0 = no message,
 * 1 + arm) and action probabilities p (p[0] = no message) is modelled per persona as
 *
 *   r = x·β + Σ_c u_c·κ_c + Σ_f v_f·φ_f + (S − π)·(x₋·γ) + Σ_c u_c·δ_{patient,c} + ε,   ε ~ N(0, σ²)
 *
 * where S = 1{A ≠ 0}, π = 1 − p_0, x₋ is x without its intercept, and u_c = Σ_{a of category c}(1{A=a} − p_a),
 * v_f = Σ_{a of framing f}(1{A=a} − p_a) are the centred indicators of the message's category and framing.
 * The advantage of arm (c, f) over no message for a patient in context x is κ_c + φ_f + x₋·γ + δ_{patient,c}.
 *
 * - Action centring (Greenewald et al. 2017): the indicators are centred on their probabilities, so they
 *   are uncorrelated with anything known before the decision and the advantage estimates stay unbiased
 *   although the baseline x·β is crude.
 * - Content as main effects: an arm's advantage is its category's plus its framing's, so each of the 9
 *   effects learns from a quarter to a fifth of all messages instead of each of 20 arms from a twentieth.
 *   This assumes the framing works alike across categories (no interaction).
 * - Partial pooling: (β, κ, φ, γ) has a Gaussian posterior per persona (conjugate, known noise variance
 *   σ²). A patient's offsets δ_{patient,c} (one per category: 10 numbers per patient) have prior N(0, τ²)
 *   around the persona — a new patient decides exactly as their persona — and a diagonal Gaussian
 *   posterior fitted to the residuals against the persona's mean (a mean-field, backfitting
 *   approximation that keeps 100,000 patients cheap). τ² is re-estimated from the patients' offsets
 *   after every batch (one EM step: empirical Bayes).
 */
import { armCount, messageCategories, messageFramings } from '@/engine/policy/message-arms';

/** Baseline features: intercept, message load, supply running low, weekend. */
export const featureCount = 4;
export const categoryCount = messageCategories.length;
export const framingCount = messageFramings.length;
/** κ (categories) then φ (framings): the content effects, drawn jointly. */
export const contentCount = categoryCount + framingCount;
export const categoryOffset = featureCount;
export const framingOffset = featureCount + categoryCount;
export const gammaOffset = featureCount + contentCount;
/** β (featureCount) + κ + φ + γ (featureCount − 1). */
export const parameterCount = gammaOffset + featureCount - 1;

/** Category and framing of each arm (arm index → index). */
export const armCategory: readonly number[] = Array.from({ length: armCount }, (_, arm) => Math.floor(arm / framingCount));
export const armFraming: readonly number[] = Array.from({ length: armCount }, (_, arm) => arm % framingCount);

/**
 * Prior standard deviations. Rewards are shares of doses (0–1), so the baseline may be anything in that
 * range; a message moves the confirmed share by a few points at most (Thakkar 2016), so an arm's advantage
 * starts at 0 ± 0.05 (category and framing ± 0.035 each) — wide enough to learn from, narrow enough not
 * to chase noise in the first days.
 */
export const priorScale = { baseline: 1, content: 0.035, modulation: 0.05, patientOffset: 0.03 } as const;

/** Variance of a day's observed reward around the model: a share of 1–4 doses confirmed is noisy. */
export const noiseVariance = 0.1;

/** Smallest patient-offset variance empirical Bayes may settle on (keeps a patient from being frozen to the persona). */
export const minimumOffsetVariance = 0.0001;
