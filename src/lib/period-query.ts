/**
 * The reporting period in a page's address, the same words on every page so that one choice carries across
 * them: `?period=last-3-months|last-6-months|last-12-months`, `?period=year-2025`, or
 * `?period=custom&from=2025-01-01&to=2025-06-30`. No `period` means the default (the last 12 months).
 * Bad input is named field by field, and the default is used instead (the page says so).
 */
import { z } from '@/lib/zod';
import { dayNumberFromIso, isoFromDayNumber, isValidCivil } from '@/engine/adherence/day-number';
import { DEFAULT_PERIOD_CHOICE, MAX_PERIOD_DAYS, type PeriodChoice, type ReportingPeriod } from '@/engine/aggregation/reporting-period';

export const PERIOD_PARAMS = ['period', 'from', 'to'] as const;
export type PeriodQuery = Partial<Record<(typeof PERIOD_PARAMS)[number], string>>;

const LAST_MONTHS = /^last-(3|6|12)-months$/;
const YEAR = /^year-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const once = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(32, { error: `${field} is too long` });

function isoDay(value: string | undefined): number | null {
  const match = value === undefined ? null : ISO_DATE.exec(value);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 1900 && isValidCivil(year, month, day) ? dayNumberFromIso(value!) : null;
}

export const periodQuerySchema = z
  .object({ period: once('period').optional(), from: once('from').optional(), to: once('to').optional() })
  .transform((value, context): PeriodChoice => {
    const period = value.period === undefined || value.period === '' ? 'last-12-months' : value.period;
    const months = LAST_MONTHS.exec(period);
    if (months !== null) return { kind: 'last-months', months: Number(months[1]) as 3 | 6 | 12 };
    const year = YEAR.exec(period);
    if (year !== null) {
      const number = Number(year[1]);
      if (number >= 1900) return { kind: 'calendar-year', year: number };
      context.addIssue({ code: 'custom', path: ['period'], message: 'the year must be 1900 or later' });
      return z.NEVER;
    }
    if (period !== 'custom') {
      context.addIssue({
        code: 'custom',
        path: ['period'],
        message: 'choose last-3-months, last-6-months, last-12-months, year-YYYY or custom',
      });
      return z.NEVER;
    }
    // Both dates are checked before giving up, so every field at fault is named.
    const from = isoDay(value.from);
    const to = isoDay(value.to);
    if (from === null) context.addIssue({ code: 'custom', path: ['from'], message: 'give a date as YYYY-MM-DD, 1900 or later' });
    if (to === null) context.addIssue({ code: 'custom', path: ['to'], message: 'give a date as YYYY-MM-DD, 1900 or later' });
    if (from === null || to === null) return z.NEVER;
    if (from > to) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must be on or after from' });
      return z.NEVER;
    }
    if (to - from + 1 > MAX_PERIOD_DAYS) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'the period may be at most ten years long' });
      return z.NEVER;
    }
    return { kind: 'custom', from, to };
  });

/** The choice in an address, or the default with every problem named (e.g. "from: give a date as YYYY-MM-DD"). */
export function parsePeriodQuery(searchParams: Record<string, string | string[] | undefined>): {
  choice: PeriodChoice;
  problem: string | null;
} {
  const parsed = periodQuerySchema.safeParse({ period: searchParams.period, from: searchParams.from, to: searchParams.to });
  if (parsed.success) return { choice: parsed.data, problem: null };
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'period'}: ${issue.message}`);
  return {
    choice: DEFAULT_PERIOD_CHOICE,
    problem: `The period in the address is not valid (${problems.join('; ')}). Showing the last 12 months.`,
  };
}

/** The address parameters of a choice (none for the default, so plain links stay plain). */
export function periodQueryOf(choice: PeriodChoice): PeriodQuery {
  switch (choice.kind) {
    case 'last-months':
      return choice.months === 12 ? {} : { period: `last-${choice.months}-months` };
    case 'calendar-year':
      return { period: `year-${choice.year}` };
    case 'custom':
      return { period: 'custom', from: isoFromDayNumber(choice.from), to: isoFromDayNumber(choice.to) };
  }
}

/** `path` with the choice's parameters and any others (e.g. the journey's filters) appended. */
export function hrefWithPeriod(path: string, choice: PeriodChoice, others: Record<string, string | null> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...others, ...periodQueryOf(choice) })) if (value) params.set(key, value);
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** A period as pages show it: ISO dates, the end included (serialisable, for client components too). */
export type PeriodView = {
  start: string;
  end: string;
  /** The last day of data the period is cut at. */
  asOf: string;
  days: number;
  choice: PeriodChoice;
  notice: string | null;
};

export function periodView(period: ReportingPeriod): PeriodView {
  return {
    start: isoFromDayNumber(period.start),
    end: isoFromDayNumber(period.end - 1),
    asOf: isoFromDayNumber(period.asOf),
    days: period.end - period.start,
    choice: period.choice,
    notice: period.notice,
  };
}
