/**
 * The 12-month period both pages look at, and the conversions from stored rows to the engine's inputs.
 * The period ends on the last day any dispensed supply lasts to, never after today: a data set that
 * ended last month still shows its full year. (Dispensings, not dose events: the dispensings table is
 * small, and a maximum over every dose event would scan the largest table on each page view.)
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber, type MedicationEvent } from '@/engine/adherence';

export const PERIOD_DAYS = 365;
/** A gap of more than 60 days without supply ends a treatment episode (discontinuation). */
export const PERMISSIBLE_GAP_DAYS = 60;
/** Privacy roles: whatever they see of groups of patients goes through small-cell suppression. */
export const SUPPRESSED_ROLES = new Set(['patient', 'drug-manufacturer', 'government-official']);

export type Period = { start: number; end: number };

const utcDay = (instant: Date) => Math.floor(instant.getTime() / 86_400_000);

/** The calendar day of an instant in a time zone (UTC when none or an unknown one is given). */
export function dayFromInstant(instant: Date, formatter: Intl.DateTimeFormat | null): number {
  if (formatter === null) return utcDay(instant);
  return dayNumberFromIso(formatter.format(instant));
}

export function dayFormatter(timeZone: string | null): Intl.DateTimeFormat | null {
  if (timeZone === null || timeZone === '') return null;
  try {
    // en-CA formats as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    return null;
  }
}

/** [start, end) of the last 12 months of data: end is the day after the last supplied day, at most tomorrow. */
export async function findReportingPeriod(options: { database: Database; now: Date }): Promise<Period> {
  // date + integer is a date in PostgreSQL: the day after the fill's supply runs out.
  const [last] = await options.database.select({ suppliedUntil: sql<string | null>`max(${dispensings.dispensedOn} + ${dispensings.daysSupply})::text` }).from(dispensings);
  const today = utcDay(options.now);
  const end = last?.suppliedUntil ? Math.min(dayNumberFromIso(last.suppliedUntil), today + 1) : today + 1;
  return { start: end - PERIOD_DAYS, end };
}

export type FillRow = { productId: string | null; medicationCode: string | null; dispensedOn: string; daysSupply: number; dosesPerDay: number | null };

/** The medication a fill is of: its product, else the code the source gave. */
export function drugOf(fill: Pick<FillRow, 'productId' | 'medicationCode'>): string {
  return fill.productId ?? fill.medicationCode ?? 'unknown medication';
}

/** Fills as AdhereR events, sorted by day, before `end` only. */
export function medicationEventsFrom(fills: readonly FillRow[], end: number): MedicationEvent[] {
  return fills
    .map((fill) => ({ day: dayNumberFromIso(fill.dispensedOn), duration: fill.daysSupply, dose: fill.dosesPerDay ?? 1, medicationClass: drugOf(fill) }))
    .filter((event) => event.day < end)
    .sort((left, right) => left.day - right.day);
}

export const isoDay = isoFromDayNumber;
