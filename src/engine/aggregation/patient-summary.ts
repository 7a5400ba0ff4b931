/**
 * One patient's adherence over the reporting period, as pure functions of their medication events
 * (sorted by day; fills before the period carry supply into it) and observed doses: the figures the
 * patient profile shows and the home page averages. Days are day numbers; ranges are [start, end).
 */
import { computeDoseAdherence, type DoseAdherence } from '@/engine/adherence/dose-adherence';
import { POOLED_CARRY_OVER, runGapModel } from '@/engine/adherence/gap-model';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { computePdc } from '@/engine/adherence/pdc';
import { computeSlidingWindowCma } from '@/engine/adherence/sliding-window-cma';
import { computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS } from '@/engine/adherence/treatment-episodes';
import { PERMISSIBLE_GAP_DAYS, type Period } from './reporting-period';

/** CMA7 and CMA9 in 90-day windows every 30 days. */
const SLIDING_WINDOW = { start: 0, duration: 90, step: 30 };
/** A dose confirmed within an hour of its scheduled time is on time. */
export const ON_TIME_MINUTES = 60;

export type PeriodPdc = { value: number; coveredDays: number; periodDays: number; start: number; end: number };

/**
 * PDC over the period, or from the first fill when treatment began inside it (PQA); null without a fill
 * before the period's end.
 */
export function periodPdc(events: readonly MedicationEvent[], period: Period): PeriodPdc | null {
  const firstDay = events.find((event) => event.day < period.end)?.day;
  if (firstDay === undefined) return null;
  const start = Math.max(period.start, firstDay);
  const result = computePdc({
    fills: events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass })),
    periodStart: start,
    periodEnd: period.end,
  });
  return { value: result.pdc, coveredDays: result.coveredDays, periodDays: result.periodDays, start, end: period.end };
}

export type CmaWindow = { start: number; end: number; cma7: number | null; cma9: number | null };

/** CMA7 and CMA9 in sliding windows: follow-up from the first fill (so earlier supply carries in), observation = the period from then. */
export function slidingCmaWindows(events: readonly MedicationEvent[], period: Period): CmaWindow[] {
  const firstDay = events[0]?.day;
  if (firstDay === undefined || firstDay >= period.end) return [];
  const observationStart = Math.max(period.start, firstDay);
  const settings = {
    ...POOLED_CARRY_OVER,
    followUpStart: 0,
    followUpDuration: period.end - firstDay,
    observationStart: observationStart - firstDay,
    observationDuration: period.end - observationStart,
  };
  const cma7 = computeSlidingWindowCma('CMA7', events, settings, SLIDING_WINDOW);
  const cma9 = computeSlidingWindowCma('CMA9', events, settings, SLIDING_WINDOW);
  return cma7.map((window, index) => ({ start: window.start, end: window.end, cma7: window.value, cma9: cma9[index]?.value ?? null }));
}

export type RefillGap = { medicationClass: string; start: number; end: number; days: number };

/** Days without supply before each next fill, per medication (carry-over of early refills counted), that end inside the period; by start. */
export function refillGaps(events: readonly MedicationEvent[], period: Period): RefillGap[] {
  const gaps: RefillGap[] = [];
  for (const medication of new Set(events.map((event) => event.medicationClass))) {
    const own = events.filter((event) => event.medicationClass === medication);
    const model = runGapModel(own, 0, own.length, period.end, POOLED_CARRY_OVER);
    own.forEach((event, index) => {
      const gap = Math.round(model.gaps[index]!);
      const intervalEnd = event.day + model.intervals[index]!;
      if (gap > 0 && intervalEnd > period.start)
        gaps.push({ medicationClass: medication, start: intervalEnd - gap, end: intervalEnd, days: gap });
    });
  }
  return gaps.sort((left, right) => left.start - right.start);
}

/** A medicine whose supply ran out shortly before the period's end and was not refilled by then. */
export type SupplyLapse = { medicationClass: string; start: number };

/**
 * The medicines whose supply ran out in the last `days` days of the period and is still out at its end (the
 * open gap `refillGaps` ends at the period's end): the care team's "lapsed this week".
 */
export function recentSupplyLapses(events: readonly MedicationEvent[], period: Period, days = 7): SupplyLapse[] {
  return refillGaps(events, period)
    .filter((gap) => gap.end === period.end && gap.start >= period.end - days)
    .map((gap) => ({ medicationClass: gap.medicationClass, start: gap.start }));
}

export type Episode = { episode: number; start: number; end: number; days: number; ongoing: boolean };

/** Treatment episodes up to the period's end (a gap of more than 60 days ends one); `end` is exclusive, whole days. */
export function treatmentEpisodes(events: readonly MedicationEvent[], period: Period): Episode[] {
  return computeTreatmentEpisodes(
    events,
    { followUpEnd: period.end },
    { ...DEFAULT_EPISODE_SETTINGS, maximumPermissibleGap: PERMISSIBLE_GAP_DAYS },
  ).map((episode) => ({
    episode: episode.episode,
    start: episode.start,
    end: Math.ceil(episode.end),
    days: Math.round(episode.end - episode.start),
    ongoing: episode.end >= period.end,
  }));
}

/** A dose the product observed (unknown doses carry no information and are left out by the caller). */
export type ObservedDose = {
  /** The patient's local calendar day of the scheduled time. */
  day: number;
  status: 'taken' | 'missed' | 'skipped';
  /** Minutes since 1970-01-01 UTC. */
  scheduledMinute: number;
  confirmedMinute: number | null;
};

export type DayStatus = 'taken' | 'missed' | 'skipped' | 'none';
export type CalendarDay = { day: number; status: DayStatus; takenDoses: number; scheduledDoses: number };

/**
 * A day per day of the period: missed when any dose was missed, else skipped when any was skipped, else
 * taken (none without observed doses); and dose-level adherence over the doses of those days.
 */
export function summariseDoses(doses: readonly ObservedDose[], period: Period): { calendar: CalendarDay[]; adherence: DoseAdherence } {
  const byDay = new Map<number, { taken: number; missed: number; skipped: number; scheduled: number }>();
  const inPeriod = doses.filter((dose) => dose.day >= period.start && dose.day < period.end);
  for (const dose of inPeriod) {
    const tally = byDay.get(dose.day) ?? { taken: 0, missed: 0, skipped: 0, scheduled: 0 };
    tally.scheduled += 1;
    tally[dose.status] += 1;
    byDay.set(dose.day, tally);
  }
  const calendar: CalendarDay[] = [];
  for (let day = period.start; day < period.end; day += 1) {
    const tally = byDay.get(day);
    const status: DayStatus = tally === undefined ? 'none' : tally.missed > 0 ? 'missed' : tally.skipped > 0 ? 'skipped' : 'taken';
    calendar.push({ day, status, takenDoses: tally?.taken ?? 0, scheduledDoses: tally?.scheduled ?? 0 });
  }
  const adherence = computeDoseAdherence(
    inPeriod.map((dose) => ({
      scheduledMinute: dose.scheduledMinute,
      confirmedMinute: dose.status === 'taken' ? dose.confirmedMinute : null,
    })),
    { onTimeWindowMinutes: ON_TIME_MINUTES },
  );
  return { calendar, adherence };
}
