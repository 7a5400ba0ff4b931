/**
 * Dose-level adherence from dose events (scheduled dose, confirmation if any): the share of scheduled
 * doses that were confirmed, and the share confirmed on time (within a window around the scheduled
 * time). Times are minutes since 1970-01-01 UTC, not day numbers: dose timing needs the time of day.
 */

export type DoseEvent = {
  scheduledMinute: number;
  /** null when the dose was never confirmed. */
  confirmedMinute: number | null;
};

export type DoseAdherence = {
  scheduledDoses: number;
  confirmedDoses: number;
  onTimeDoses: number;
  /** Confirmed / scheduled; null without scheduled doses. */
  confirmedShare: number | null;
  /** Confirmed within ± the on-time window / scheduled; null without scheduled doses. */
  onTimeShare: number | null;
};

export function computeDoseAdherence(
  doses: readonly DoseEvent[],
  options: {
    /** A confirmation at most this many minutes before or after the scheduled time is on time. */
    onTimeWindowMinutes: number;
    /** Only doses scheduled in [periodStartMinute, periodEndMinute) count (default: all). */
    periodStartMinute?: number;
    periodEndMinute?: number;
  },
): DoseAdherence {
  const periodStart = options.periodStartMinute ?? -Infinity;
  const periodEnd = options.periodEndMinute ?? Infinity;
  let scheduledDoses = 0;
  let confirmedDoses = 0;
  let onTimeDoses = 0;
  for (const dose of doses) {
    if (dose.scheduledMinute < periodStart || dose.scheduledMinute >= periodEnd) continue;
    scheduledDoses += 1;
    if (dose.confirmedMinute === null) continue;
    confirmedDoses += 1;
    if (Math.abs(dose.confirmedMinute - dose.scheduledMinute) <= options.onTimeWindowMinutes) onTimeDoses += 1;
  }
  return {
    scheduledDoses,
    confirmedDoses,
    onTimeDoses,
    confirmedShare: scheduledDoses === 0 ? null : confirmedDoses / scheduledDoses,
    onTimeShare: scheduledDoses === 0 ? null : onTimeDoses / scheduledDoses,
  };
}
