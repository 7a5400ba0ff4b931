import { z } from '@/lib/zod';

import { ALL_FILTER_VALUE } from '@/lib/filter-values';

export { ALL_FILTER_VALUE };

/** A persona or product key: letters, digits and a few separators (product ids come from imports: `rxnorm-…`, `ndc-…`). */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const filterKey = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(128, { error: `${field} is too long` })
    .refine((value) => value === '' || KEY_PATTERN.test(value), { error: `${field} may hold only letters, digits, “.”, “_”, “:” and “-”` })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** `?persona=…&product=…` of the compliance-journey page; "all" or an empty value means no filter. */
export const journeyFiltersSchema = z.object({ persona: filterKey('persona'), product: filterKey('product') }).transform((value) => ({
  persona: value.persona === undefined || value.persona === ALL_FILTER_VALUE ? null : value.persona,
  product: value.product === undefined || value.product === ALL_FILTER_VALUE ? null : value.product,
}));

export type JourneyFilters = z.output<typeof journeyFiltersSchema>;

/**
 * `?patient=…` of the patient-profile page: one value, at most an id's length. Whether it names a patient the
 * viewer may see is the use case's decision (an unknown id and a forbidden one get the same answer).
 */
export const patientProfileQuerySchema = z.object({
  patient: z.string({ error: 'patient must be given once' }).trim().max(64, { error: 'patient is not a patient id' }).optional(),
});
