import { dayNumberFromCivil, isValidCivil, isoFromDayNumber } from '@/engine/adherence';

export type DateFormat = 'iso' | 'mdy' | 'dmy';
export const dateFormats = ['iso', 'mdy', 'dmy'] as const satisfies readonly DateFormat[];

const fhirDatePattern = /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/;

/**
 * The calendar date of a FHIR `date` or `dateTime` as the source wrote it (its own local date), or null
 * when the value is partial ("2015", "2015-01") or not a date: a day's supply needs a whole day.
 */
export function calendarDateOf(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const match = fhirDatePattern.exec(value);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isValidCivil(year, month, day) ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** An instant (ISO 8601, UTC) for a FHIR dateTime; a date alone is taken as midnight UTC. Null when invalid. */
export function instantOf(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const date = calendarDateOf(value);
  if (date === null) return null;
  if (value.length === 10) return `${date}T00:00:00.000Z`;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return isoFromDayNumber(dayNumberFromCivil(year, month, day) + days);
}

/** Whole years between a birth date and a reference date (both ISO calendar dates). */
export function ageInYears(birthDate: string, onDate: string): number {
  const [birthYear, birthMonth, birthDay] = birthDate.split('-').map(Number) as [number, number, number];
  const [year, month, day] = onDate.split('-').map(Number) as [number, number, number];
  const hadBirthday = month > birthMonth || (month === birthMonth && day >= birthDay);
  return year - birthYear - (hadBirthday ? 0 : 1);
}

const civilPatterns: Record<DateFormat, RegExp> = {
  iso: /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
  mdy: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/,
  dmy: /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/,
};

export const dateFormatDescriptions: Record<DateFormat, string> = { iso: 'YYYY-MM-DD', mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' };

/** A calendar date written in one of the CSV date formats, as ISO, or null when it is not a valid date. */
export function parseCivilDate(text: string, format: DateFormat): string | null {
  const match = civilPatterns[format].exec(text.trim());
  if (match === null) return null;
  const [first, second, third] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [year, month, day] = format === 'iso' ? [first, second, third] : format === 'mdy' ? [third, first, second] : [third, second, first];
  if (!isValidCivil(year, month, day)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
