import { z } from '@/lib/zod';
import { type CountryId, countryIds } from './presets';

export const DEFAULT_COUNTRY: CountryId = 'united-kingdom';

/** `?country=…` of the patient-outcomes page: one of the presets; absent or empty means the default. */
export const outcomesQuerySchema = z.object({
  country: z
    .string({ error: 'country must be given once, as text' })
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? DEFAULT_COUNTRY : value))
    .pipe(z.enum(countryIds, { error: `country must be one of ${countryIds.join(', ')}` })),
});
