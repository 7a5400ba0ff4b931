/**
 * The reporting rules every view of adherence shares (the home page's headline, data sources, the patient
 * profile, the compliance journey, and the background jobs that read adherence):
 * - the as-of date is the latest day the viewer's data covers (a dispensing or an observed dose), never after
 *   today — a data set that ended last month is reported up to its end, not into days nobody could observe,
 *   and rows dated in the future do not move it (issue 11 item 1);
 * - the default period is the 12 months ending on the as-of date; the viewer may choose the last 3 or 6
 *   months, a calendar year or any from–to, always cut at the as-of date;
 * - one earlier year of fills is read, so supply dispensed before the period carries into it.
 * src/db/queries/reporting-period.ts reads the data these rules apply to.
 */
import { civilFromDayNumber, daysInMonth, dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence/day-number';

/** Fills this many days before the period are read too, so their supply carries into it. */
export const LOOKBACK_DAYS = 365;
/** A gap of more than 60 days without supply ends a treatment episode (discontinuation). */
export const PERMISSIBLE_GAP_DAYS = 60;
/** The longest custom period: ten years (the look-back and PDC read every fill of it). */
export const MAX_PERIOD_DAYS = 3653;

/** Day numbers, [start, end). */
export type Period = { start: number; end: number };

/** What the viewer asked for; `from`/`to` are day numbers, both included. */
export type PeriodChoice =
  { kind: 'last-months'; months: 3 | 6 | 12 } | { kind: 'calendar-year'; year: number } | { kind: 'custom'; from: number; to: number };

export const DEFAULT_PERIOD_CHOICE: PeriodChoice = { kind: 'last-months', months: 12 };

/** A period as reported: [start, end), the as-of day it is cut at, the choice it answers, and why it differs from it (if it does). */
export type ReportingPeriod = Period & {
  asOf: number;
  /** The latest day the data covers (before the cap at today); null without data. */
  latestData: number | null;
  choice: PeriodChoice;
  /** Why the period is not exactly what was chosen (e.g. cut at the data's end); null when it is. */
  notice: string | null;
};

/** The as-of day: the latest day the data covers, at most today; today when there is no data. */
export function asOfDay(options: { latestData: number | null; today: number }): number {
  return options.latestData === null ? options.today : Math.min(options.latestData, options.today);
}

/** `day` moved by whole calendar months, the day of month clamped to the target month (31 Mar − 1 month → 28/29 Feb). */
export function addMonths(day: number, months: number): number {
  const { year, month, day: dayOfMonth } = civilFromDayNumber(day);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return dayNumberFromCivil(targetYear, targetMonth, Math.min(dayOfMonth, daysInMonth(targetYear, targetMonth)));
}

/**
 * The period a choice stands for on data up to `asOf`: never ending after `asOf`. A choice lying wholly after
 * the data falls back to the default, with a notice saying why.
 */
export function resolvePeriod(options: { choice: PeriodChoice; asOf: number; latestData?: number | null }): ReportingPeriod {
  const { choice, asOf } = options;
  const base = { asOf, latestData: options.latestData ?? null, choice };
  const dataEnd = asOf + 1;
  const asOfText = isoFromDayNumber(asOf);
  switch (choice.kind) {
    case 'last-months':
      return { ...base, start: addMonths(dataEnd, -choice.months), end: dataEnd, notice: null };
    case 'calendar-year': {
      const start = dayNumberFromCivil(choice.year, 1, 1);
      const yearEnd = dayNumberFromCivil(choice.year + 1, 1, 1);
      if (start > asOf) return fallBack(base, `period: ${choice.year} begins after the data, which ends on ${asOfText}.`);
      return {
        ...base,
        start,
        end: Math.min(yearEnd, dataEnd),
        notice: yearEnd > dataEnd ? `period: ${choice.year} is cut at ${asOfText}, the last day of data.` : null,
      };
    }
    case 'custom': {
      if (choice.from > asOf) return fallBack(base, `from: ${isoFromDayNumber(choice.from)} is after the data, which ends on ${asOfText}.`);
      const end = Math.min(choice.to + 1, dataEnd);
      return { ...base, start: choice.from, end, notice: choice.to > asOf ? `to: cut at ${asOfText}, the last day of data.` : null };
    }
  }
}

function fallBack(base: Omit<ReportingPeriod, 'start' | 'end' | 'notice'>, why: string): ReportingPeriod {
  const period = resolvePeriod({ choice: DEFAULT_PERIOD_CHOICE, asOf: base.asOf, latestData: base.latestData });
  return { ...period, notice: `${why} Showing the last 12 months instead.` };
}

/** The first day of fills to read for a period (inclusive). */
export function lookbackStart(period: Period): number {
  return period.start - LOOKBACK_DAYS;
}
