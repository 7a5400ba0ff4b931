/**
 * National healthcare impact and patient outcomes (issue 15 items 4–5). Server use cases are imported from
 * server/; the presets and schemas are browser safe.
 */
export { countryIds, countryPresets, modelledConditions, NOT_CAUSAL_LABEL, type CountryId, type CountryPreset } from './presets';
export {
  DEFAULT_COUNTRY,
  outcomesQuerySchema,
  parsePlatformAdherenceQuery,
  platformAdherenceQuery,
  type PlatformAdherence,
} from './schemas';
