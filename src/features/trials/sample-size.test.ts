import { describe, expect, it } from 'vitest';
import { parseInput } from '@/lib/parse-input';
import { sampleSizeInputSchema, sampleSizeOf } from './sample-size';

/** What the server action does: parse with the schema (a validation AppError naming each field), then compute. */
const calculateSampleSize = (input: unknown) =>
  sampleSizeOf(parseInput(sampleSizeInputSchema, input, { label: 'The sample-size calculation' }));

/** The refusal calculateSampleSize throws for `input`. */
function refusal(input: unknown) {
  try {
    calculateSampleSize(input);
  } catch (error) {
    return error;
  }
  throw new Error('accepted');
}

// statsmodels' NormalIndPower (two-sided α 0.05, power 0.8), unrounded, as in the engine's golden vectors.
const reference = {
  sampleSizeProportions: [
    { p1: 0.5, p2: 0.65, n: 169.31137141966892, nContinuityCorrected: 182.4010414268678 },
    { p1: 0.5, p2: 0.6, n: 387.33851669903584, nContinuityCorrected: 407.0928725063868 },
    { p1: 0.6, p2: 0.75, n: 151.86886211727608, nContinuityCorrected: 164.93272531143285 },
  ],
  sampleSizeMeans: [
    { sd: 0.25, delta: 0.08, n: 153.29843231150562 },
    { sd: 0.25, delta: 0.1, n: 98.11099667936358 },
  ],
};

describe('the sample-size calculator', () => {
  it.each(reference.sampleSizeProportions)('rounds up the statsmodels n for p1 $p1, p2 $p2', (row) => {
    const result = calculateSampleSize({ kind: 'proportions', p1: String(row.p1), p2: String(row.p2), alpha: '0.05', power: '0.8' });
    expect(result).toEqual({ kind: 'proportions', n: Math.ceil(row.n), nContinuityCorrected: Math.ceil(row.nContinuityCorrected) });
  });

  it.each(reference.sampleSizeMeans)('rounds up the n for sd $sd, delta $delta', (row) => {
    expect(calculateSampleSize({ kind: 'means', sd: String(row.sd), delta: String(row.delta), alpha: '0.05', power: '0.8' })).toEqual({
      kind: 'means',
      n: Math.ceil(row.n),
    });
  });

  it('names each bad field', () => {
    // Exactly these three, each named.
    expect(
      (refusal({ kind: 'proportions', p1: '1.2', p2: 'x', alpha: '0.05', power: '0.3' }) as { fieldErrors: unknown }).fieldErrors,
    ).toEqual({
      p1: 'Proportion in the control arm (p1) must be between 0 and 1 (exclusive).',
      p2: 'Proportion in the intervention arm (p2) must be a number.',
      power: 'Power must be from 0.5 to below 1.',
    });
    expect(refusal({ kind: 'proportions', p1: '0.5', p2: '0.5', alpha: '0.05', power: '0.8' })).toMatchObject({
      fieldErrors: { p2: expect.stringContaining('must differ') },
    });
    expect(refusal({ kind: 'means', sd: '0', delta: '0', alpha: '', power: '0.8' })).toMatchObject({
      fieldErrors: {
        sd: 'Standard deviation must be above 0.',
        delta: 'Difference to detect must not be 0.',
        alpha: 'Significance level (α) must be a number.',
      },
    });
  });

  it('answers the calculator by kind, and refuses bad input naming the field', () => {
    expect(calculateSampleSize({ kind: 'proportions', p1: '0.5', p2: '0.65', alpha: '0.05', power: '0.8' })).toEqual({
      kind: 'proportions',
      n: 170,
      nContinuityCorrected: 183,
    });
    expect(calculateSampleSize({ kind: 'means', sd: '0.25', delta: '0.1', alpha: '0.05', power: '0.8' })).toEqual({
      kind: 'means',
      n: 99,
    });
    expect(() => calculateSampleSize({ kind: 'means', sd: '-1', delta: '0.1', alpha: '0.05', power: '0.8' })).toThrow(
      'Standard deviation must be above 0.',
    );
    expect(() => calculateSampleSize({ kind: 'medians' })).toThrow('kind must be proportions or means.');
  });

  it('parses with one zod schema, so a bad field comes back as a validation error naming that field', () => {
    expect(refusal({ kind: 'proportions', p1: '0.5', p2: '0.65', alpha: '0.5', power: '0.8' })).toMatchObject({
      code: 'validation',
      httpStatus: 400,
      message: 'The sample-size calculation is not valid: alpha: Significance level (α) must be above 0 and at most 0.2.',
      fieldErrors: { alpha: 'Significance level (α) must be above 0 and at most 0.2.' },
    });
    // A missing field, a number where the form sends text, text too long for a number, out of bounds, a bad kind.
    expect(refusal({ kind: 'means', sd: '0.25', alpha: '0.05', power: 0.8 })).toMatchObject({
      fieldErrors: { delta: 'Difference to detect must be a number.', power: 'Power must be a number.' },
    });
    expect(refusal({ kind: 'means', sd: '1'.repeat(41), delta: '1e7', alpha: '0.05', power: '0.8' })).toMatchObject({
      fieldErrors: {
        sd: 'Standard deviation must be at most 40 characters.',
        delta: 'Difference to detect must be between -1,000,000 and 1,000,000.',
      },
    });
    expect(refusal({ kind: 'medians' })).toMatchObject({ fieldErrors: { kind: 'kind must be proportions or means.' } });
  });
});
