import { sampleSizeTwoMeans, sampleSizeTwoProportions } from '@/engine/statistics/trial';
import { z } from '@/lib/zod';

/**
 * One of the calculator's text fields as a number: the form sends what was typed. `abort` stops at "not a
 * number" so the range check below never reads NaN; 40 characters is more than any number needs.
 */
const numberField = (label: string) =>
  z
    .string({ error: `${label} must be a number.` })
    .trim()
    .max(40, { error: `${label} must be at most 40 characters.` })
    .refine((text) => text !== '' && Number.isFinite(Number(text)), { error: `${label} must be a number.`, abort: true })
    .transform(Number);

const labels = {
  p1: 'Proportion in the control arm (p1)',
  p2: 'Proportion in the intervention arm (p2)',
  alpha: 'Significance level (α)',
  power: 'Power',
  sd: 'Standard deviation',
  delta: 'Difference to detect',
};
/** Far past any outcome scale the trial page uses; keeps n a finite number. */
const largest = 1_000_000;

const proportion = (label: string) =>
  numberField(label).pipe(
    z
      .number()
      .gt(0, { error: `${label} must be between 0 and 1 (exclusive).` })
      .lt(1, { error: `${label} must be between 0 and 1 (exclusive).` }),
  );
const alpha = numberField(labels.alpha).pipe(
  z
    .number()
    .gt(0, { error: `${labels.alpha} must be above 0 and at most 0.2.` })
    .lte(0.2, { error: `${labels.alpha} must be above 0 and at most 0.2.` }),
);
const power = numberField(labels.power).pipe(
  z
    .number()
    .gte(0.5, { error: `${labels.power} must be from 0.5 to below 1.` })
    .lt(1, { error: `${labels.power} must be from 0.5 to below 1.` }),
);

const proportionsShape = { p1: proportion(labels.p1), p2: proportion(labels.p2), alpha, power };
const meansShape = {
  sd: numberField(labels.sd).pipe(
    z
      .number()
      .gt(0, { error: `${labels.sd} must be above 0.` })
      .lte(largest, { error: `${labels.sd} must be at most 1,000,000.` }),
  ),
  delta: numberField(labels.delta).pipe(
    z
      .number()
      .refine((value) => value !== 0, { error: `${labels.delta} must not be 0.` })
      .refine((value) => Math.abs(value) <= largest, { error: `${labels.delta} must be between -1,000,000 and 1,000,000.` }),
  ),
  alpha,
  power,
};

/** The calculator's input, one form's fields beside its kind: each error is keyed by the field it is about. */
export const sampleSizeInputSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({ kind: z.literal('proportions'), ...proportionsShape })
      .refine((fields) => fields.p1 !== fields.p2, { path: ['p2'], error: `${labels.p2} must differ from p1.` }),
    z.object({ kind: z.literal('means'), ...meansShape }),
  ],
  { error: 'kind must be proportions or means.' },
);
export type SampleSizeInput = z.input<typeof sampleSizeInputSchema>;
export type SampleSizeRequest = z.output<typeof sampleSizeInputSchema>;

export type SampleSizeAnswer = { kind: 'proportions'; n: number; nContinuityCorrected: number } | { kind: 'means'; n: number };

/**
 * The answer to input parsed with `sampleSizeInputSchema` — by the server action, because the @stdlib quantile
 * functions the engine uses need `Function`, which the page's Content-Security-Policy forbids in the browser.
 */
export function sampleSizeOf(request: SampleSizeRequest): SampleSizeAnswer {
  // Participants per arm, rounded up (a trial recruits whole people); proportions with and without the
  // continuity correction.
  if (request.kind === 'proportions') {
    const result = sampleSizeTwoProportions(request);
    return { kind: 'proportions', n: Math.ceil(result.n), nContinuityCorrected: Math.ceil(result.nContinuityCorrected) };
  }
  return { kind: 'means', n: Math.ceil(sampleSizeTwoMeans(request).n) };
}
