import { type DateFormat, dateFormats, parseCivilDate } from './calendar-date';

export type DateFormatGuess = {
  /**
   * The one format every date of the file fits; when none fits them all, the one most fit (the others are bad
   * dates to report); null when two fit equally (no day above 12) or there are no dates.
   */
  format: DateFormat | null;
  /** Formats every date fits: two means the file cannot tell MM/DD from DD/MM (no day above 12). */
  candidates: DateFormat[];
  /** Dates looked at (non-empty values). */
  sampled: number;
};

/**
 * Which date format a file's dates are written in, from the dates themselves: YYYY-MM-DD is told by its shape;
 * a first field above 12 (25/12/2024) rules MM/DD/YYYY out, a second above 12 (12/25/2024) rules DD/MM/YYYY
 * out. Every value counts, so one date above 12 anywhere settles it; none means ambiguous.
 */
export function guessDateFormat(values: Iterable<string>): DateFormatGuess {
  const fits = new Map<DateFormat, number>(dateFormats.map((format) => [format, 0]));
  let sampled = 0;
  for (const raw of values) {
    const value = raw.trim();
    if (value === '') continue;
    sampled += 1;
    for (const format of dateFormats) if (parseCivilDate(value, format) !== null) fits.set(format, (fits.get(format) ?? 0) + 1);
  }
  if (sampled === 0) return { format: null, candidates: [...dateFormats], sampled };
  const candidates = dateFormats.filter((format) => fits.get(format) === sampled);
  if (candidates.length > 0) return { format: candidates.length === 1 ? (candidates[0] as DateFormat) : null, candidates, sampled };
  const most = Math.max(...fits.values());
  const best = dateFormats.filter((format) => fits.get(format) === most);
  return { format: most > 0 && best.length === 1 ? (best[0] as DateFormat) : null, candidates, sampled };
}
