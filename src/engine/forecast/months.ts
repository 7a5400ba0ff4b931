/** Calendar months as day-number spans [start, end), labelled 'YYYY-MM'. */
import { civilFromDayNumber, dayNumberFromCivil } from '../adherence/day-number';

export type MonthSpan = { label: string; start: number; end: number };

function monthSpan(year: number, month: number): MonthSpan {
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return {
    label: `${year}-${String(month).padStart(2, '0')}`,
    start: dayNumberFromCivil(year, month, 1),
    end: dayNumberFromCivil(next.year, next.month, 1),
  };
}

function shift(year: number, month: number, by: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The first `count` calendar months starting on or after `day`. */
export function monthsFrom(day: number, count: number): MonthSpan[] {
  const civil = civilFromDayNumber(day);
  const first = civil.day === 1 ? { year: civil.year, month: civil.month } : shift(civil.year, civil.month, 1);
  return Array.from({ length: count }, (_, index) => {
    const { year, month } = shift(first.year, first.month, index);
    return monthSpan(year, month);
  });
}

/** The last `count` complete calendar months ending on or before `day` (exclusive end), oldest first. */
export function completeMonthsBefore(day: number, count: number): MonthSpan[] {
  const civil = civilFromDayNumber(day);
  // The month holding `day` never ends by `day`; the one before it always does.
  const last = shift(civil.year, civil.month, -1);
  return Array.from({ length: count }, (_, index) => {
    const { year, month } = shift(last.year, last.month, index - count + 1);
    return monthSpan(year, month);
  });
}
