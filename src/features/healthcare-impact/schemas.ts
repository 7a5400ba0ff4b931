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

/**
 * The platform's measured adherence as the manufacturing portal's government view links it in (issue 15 item 2):
 * the share of its patients at PDC ≥ 0.8 over the view's period and population. The figure travels in the
 * address, so the page says where it came from and checks every part; anything off is ignored, with a note.
 */
export const platformAdherenceParams = {
  share: 'measuredAdherence',
  patients: 'measuredPatients',
  from: 'measuredFrom',
  to: 'measuredTo',
  dataTo: 'measuredDataTo',
  population: 'measuredPopulation',
} as const;

export type PlatformAdherence = {
  /** Share of the patients at PDC ≥ 0.8 over the period, 0–1. */
  share: number;
  /** Patients the share is of; null when the portal did not show their count. */
  patients: number | null;
  period: { from: string; to: string; dataTo: string };
  population: string;
};

/** Longest population description accepted (the portal's is well under it); longer is not the portal's. */
const MAX_POPULATION_LENGTH = 300;

const isoDate = (name: string) => z.iso.date({ error: `${name} must be a date written YYYY-MM-DD` });

const platformAdherenceSchema = z
  .object({
    share: z
      .string({ error: 'the measured adherence must be given once' })
      .regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, 'the measured adherence must be a share from 0 to 1, such as 0.62')
      .transform(Number),
    patients: z
      .string({ error: 'the number of patients must be given once' })
      .regex(/^\d{1,9}$/, 'the number of patients must be a whole number')
      .transform(Number)
      .pipe(z.number().min(11, 'a share is shown only over at least 11 patients'))
      .optional(),
    from: isoDate('the period’s first day'),
    to: isoDate('the period’s last day'),
    dataTo: isoDate('the last day of data'),
    population: z
      .string({ error: 'the population must be given once' })
      .trim()
      .min(1, 'the population must be described')
      .max(MAX_POPULATION_LENGTH, `the population must be at most ${MAX_POPULATION_LENGTH} characters`),
  })
  .refine((value) => value.from <= value.to, { error: 'the period must not end before it starts', path: ['to'] })
  .refine((value) => value.to <= value.dataTo, { error: 'the period must not end after the last day of data', path: ['dataTo'] });

/** A page's search parameters; a repeated one arrives as an array and is refused as not given once. */
type SearchParams = Record<string, string | string[] | undefined>;

/**
 * Reads the linked measured adherence from the page's search parameters: none given → nothing; all valid → the
 * figure; anything wrong → ignored, with the reason to show (never an error page).
 */
export function parsePlatformAdherenceQuery(
  params: SearchParams,
): { kind: 'none' } | { kind: 'valid'; adherence: PlatformAdherence } | { kind: 'invalid'; problem: string } {
  const raw = Object.fromEntries(Object.entries(platformAdherenceParams).map(([key, name]) => [key, params[name]]));
  if (Object.values(raw).every((value) => value === undefined)) return { kind: 'none' };
  const parsed = platformAdherenceSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = [...new Set(parsed.error.issues.map((issue) => issue.message))];
    return {
      kind: 'invalid',
      problem: `The measured adherence in this page’s address was ignored: ${problems.join('; ')}. Open the link from the manufacturing portal again.`,
    };
  }
  const { share, patients, from, to, dataTo, population } = parsed.data;
  return { kind: 'valid', adherence: { share, patients: patients ?? null, period: { from, to, dataTo }, population } };
}

/** The address parameters that carry a measured adherence (the portal builds its link with these). */
export function platformAdherenceQuery(adherence: PlatformAdherence): Record<string, string> {
  return {
    [platformAdherenceParams.share]: String(Math.round(adherence.share * 10_000) / 10_000),
    ...(adherence.patients === null ? {} : { [platformAdherenceParams.patients]: String(adherence.patients) }),
    [platformAdherenceParams.from]: adherence.period.from,
    [platformAdherenceParams.to]: adherence.period.to,
    [platformAdherenceParams.dataTo]: adherence.period.dataTo,
    [platformAdherenceParams.population]: adherence.population,
  };
}
