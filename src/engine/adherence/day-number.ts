/**
 * Calendar dates as integer day numbers (days since 1970-01-01, proleptic Gregorian, no time zone).
 * Hand-written rather than `Date`: the conversions run once per CSV row (a million times in the
 * benchmark), and integer arithmetic is both faster and immune to time-zone and DST surprises.
 * Algorithms from Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms".
 */

export type CivilDate = { year: number; month: number; day: number };

/** Day number of a valid civil date (month 1–12, day 1–31; validity is the caller's concern). */
export function dayNumberFromCivil(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function civilFromDayNumber(dayNumber: number): CivilDate {
  const shifted = dayNumber + 719468;
  const era = Math.floor(shifted / 146097);
  const dayOfEra = shifted - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function isValidCivil(year: number, month: number, day: number): boolean {
  return Number.isInteger(year) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** ISO 8601 calendar date (YYYY-MM-DD) of a day number; years 0–9999. */
export function isoFromDayNumber(dayNumber: number): string {
  const { year, month, day } = civilFromDayNumber(dayNumber);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** Day number of an ISO 8601 calendar date (YYYY-MM-DD); the inverse of isoFromDayNumber. */
export function dayNumberFromIso(isoDate: string): number {
  const [year = Number.NaN, month = Number.NaN, day = Number.NaN] = isoDate.slice(0, 10).split('-').map(Number);
  return dayNumberFromCivil(year, month, day);
}

/**
 * Calendar arithmetic as AdhereR does it (R's `lubridate`-free `seq` semantics): add whole months and,
 * when the day does not exist in the target month, roll forward to the 1st of the next month
 * (Jan 31 + 1 month = Mar 1; Feb 29 + 1 year = Mar 1 of the next year).
 */
export function addCalendarMonths(dayNumber: number, months: number): number {
  const { year, month, day } = civilFromDayNumber(dayNumber);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  if (day > daysInMonth(targetYear, targetMonth)) {
    return dayNumberFromCivil(targetYear, targetMonth, daysInMonth(targetYear, targetMonth)) + 1;
  }
  return dayNumberFromCivil(targetYear, targetMonth, day);
}
