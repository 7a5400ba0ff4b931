/**
 * How the application writes figures and dates, server and browser alike: one locale (British English, the
 * language of the spec's copy), Intl formatters made once. Pages use these instead of toFixed/toLocaleString,
 * so "12,345", "48.2%", "£0.036" and "3 March 2026" read the same everywhere.
 */

/** The one locale of every figure and date shown. */
export const displayLocale = 'en-GB';

const formatters = new Map<string, Intl.NumberFormat>();

/** Intl.NumberFormat for these options, made once (the options are few and fixed per call site). */
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(displayLocale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A count, rounded to a whole number and grouped: 12345.6 → "12,346". */
export function formatCount(value: number): string {
  return numberFormat({ maximumFractionDigits: 0 }).format(value);
}

/** A number with exactly `decimals` places, grouped: (0.81234, 3) → "0.812"; (1234.5, 1) → "1,234.5". */
export function formatDecimal(value: number, decimals: number): string {
  return numberFormat({ minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** A number with at most `maximumDecimals` places, trailing zeros dropped: (2.5, 2) → "2.5". */
export function formatNumber(value: number, maximumDecimals = 2): string {
  return numberFormat({ maximumFractionDigits: maximumDecimals }).format(value);
}

/** A share (0 to 1) as a percentage with `decimals` places: (0.4823, 1) → "48.2%"; (0.5, 0) → "50%"; null → "—". */
export function formatPercent(share: number | null, decimals = 0): string {
  if (share === null) return '—';
  return numberFormat({ style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(share);
}

/** A ratio such as PDC or a CMA to two places: 0.7812 → "0.78"; null (not defined for the period) → "not defined". */
export function formatRatio(value: number | null): string {
  return value === null ? 'not defined' : formatDecimal(value, 2);
}

/**
 * An amount of money with the precision that makes sense for its size, the same on every page: whole units
 * from 100 up ("£1,234"), pence from 1 ("£12.50"), and three significant figures below 1 so a price per
 * message or per day keeps what distinguishes it ("£0.036", "£0.0425", "£0.0012", "£0.50").
 */
export function formatMoney(value: number, currency: 'GBP' | 'USD' | 'INR' = 'GBP'): string {
  const size = Math.abs(value);
  const fixed = (decimals: number) =>
    numberFormat({ style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
  if (size >= 100) return fixed(0);
  if (size >= 1 || size === 0) return fixed(2);
  const significant = numberFormat({ style: 'currency', currency, maximumSignificantDigits: 3 }).format(value);
  // Never fewer than two places ("£0.50", not "£0.5").
  return (/[.](\d+)/.exec(significant)?.[1]?.length ?? 0) < 2 ? fixed(2) : significant;
}

const dateTimeFormat = new Intl.DateTimeFormat(displayLocale, { dateStyle: 'short', timeStyle: 'medium' });
const longDateFormat = new Intl.DateTimeFormat(displayLocale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat(displayLocale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** An instant in the viewer's time zone (the server's when rendered there): "24/11/2026, 03:15:39". */
export function formatDateTime(instant: Date | string | number): string {
  return dateTimeFormat.format(new Date(instant));
}

/** A calendar date ("2026-03-03", no time zone shift) as "3 March 2026", or "3 Mar 2026" when `short`. */
export function formatDate(isoDate: string, options: { short?: boolean } = {}): string {
  return (options.short ? shortDateFormat : longDateFormat).format(new Date(`${isoDate}T00:00:00Z`));
}

/** A period of calendar dates, both ends included, shared parts once: "1 January – 31 December 2026". */
export function formatPeriod(startIsoDate: string, endIsoDate: string, options: { short?: boolean } = {}): string {
  const format = options.short ? shortDateFormat : longDateFormat;
  return format.formatRange(new Date(`${startIsoDate}T00:00:00Z`), new Date(`${endIsoDate}T00:00:00Z`));
}
