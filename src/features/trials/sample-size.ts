import { sampleSizeTwoMeans, sampleSizeTwoProportions } from '@/engine/statistics/trial';
import { AppError } from '@/lib/errors';

type Raw = Record<string, string>;
export type Checked<T> = { ok: true; value: T } | { ok: false; fieldErrors: Record<string, string> };

function readNumber(
  raw: Raw,
  field: string,
  label: string,
  errors: Record<string, string>,
  check: (value: number) => string | null,
): number {
  const text = (raw[field] ?? '').trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    errors[field] = `${label} must be a number.`;
    return Number.NaN;
  }
  const problem = check(value);
  if (problem !== null) errors[field] = `${label} ${problem}`;
  return value;
}

const strictlyBetween0And1 = (value: number) => (value > 0 && value < 1 ? null : 'must be between 0 and 1 (exclusive).');
const alphaRange = (value: number) => (value > 0 && value <= 0.2 ? null : 'must be above 0 and at most 0.2.');
const powerRange = (value: number) => (value >= 0.5 && value < 1 ? null : 'must be from 0.5 to below 1.');
const positive = (value: number) => (value > 0 ? null : 'must be above 0.');

export type ProportionsSampleSize = { n: number; nContinuityCorrected: number };

/**
 * Participants per arm to tell two proportions apart (two-sided α, normal approximation), rounded up as a
 * trial must recruit whole people; with and without the continuity correction.
 */
export function proportionsSampleSize(raw: Raw): Checked<ProportionsSampleSize> {
  const errors: Record<string, string> = {};
  const p1 = readNumber(raw, 'p1', 'Proportion in the control arm (p1)', errors, strictlyBetween0And1);
  const p2 = readNumber(raw, 'p2', 'Proportion in the intervention arm (p2)', errors, strictlyBetween0And1);
  const alpha = readNumber(raw, 'alpha', 'Significance level (α)', errors, alphaRange);
  const power = readNumber(raw, 'power', 'Power', errors, powerRange);
  if (errors.p1 === undefined && errors.p2 === undefined && p1 === p2)
    errors.p2 = 'Proportion in the intervention arm (p2) must differ from p1.';
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  const result = sampleSizeTwoProportions({ p1, p2, alpha, power });
  return { ok: true, value: { n: Math.ceil(result.n), nContinuityCorrected: Math.ceil(result.nContinuityCorrected) } };
}

/** Participants per arm to detect a difference `delta` in means with a common standard deviation `sd`, rounded up. */
export function meansSampleSize(raw: Raw): Checked<{ n: number }> {
  const errors: Record<string, string> = {};
  const sd = readNumber(raw, 'sd', 'Standard deviation', errors, positive);
  const delta = readNumber(raw, 'delta', 'Difference to detect', errors, (value) => (value !== 0 ? null : 'must not be 0.'));
  const alpha = readNumber(raw, 'alpha', 'Significance level (α)', errors, alphaRange);
  const power = readNumber(raw, 'power', 'Power', errors, powerRange);
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, value: { n: Math.ceil(sampleSizeTwoMeans({ sd, delta, alpha, power }).n) } };
}

export type SampleSizeInput = { kind: 'proportions' | 'means'; fields: Record<string, string> };
export type SampleSizeAnswer = { kind: 'proportions'; n: number; nContinuityCorrected: number } | { kind: 'means'; n: number };

/**
 * The calculator's one entry point (a server action calls it: the @stdlib quantile functions the engine uses
 * need `Function`, which the page's Content-Security-Policy forbids in the browser). A bad field is an
 * AppError whose field errors name it.
 */
export function calculateSampleSize(input: unknown): SampleSizeAnswer {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Partial<SampleSizeInput>;
  const fields = Object.fromEntries(
    Object.entries(typeof raw.fields === 'object' && raw.fields !== null ? raw.fields : {}).map(([key, value]) => [
      key,
      String(value).slice(0, 40),
    ]),
  );
  if (raw.kind !== 'proportions' && raw.kind !== 'means') {
    throw new AppError('validation', 'kind must be proportions or means.', { fieldErrors: { kind: 'kind must be proportions or means.' } });
  }
  const checked = raw.kind === 'proportions' ? proportionsSampleSize(fields) : meansSampleSize(fields);
  if (!checked.ok) {
    throw new AppError('validation', Object.values(checked.fieldErrors).join(' '), { fieldErrors: checked.fieldErrors });
  }
  return raw.kind === 'proportions'
    ? { kind: 'proportions', ...(checked.value as ProportionsSampleSize) }
    : { kind: 'means', n: checked.value.n };
}
