/**
 * Treatment episodes (AdhereR's compute.treatment.episodes, DEFINITIONS.md §4): runs of events whose
 * gaps stay within the maximum permissible gap. An episode ends when an event's gap exceeds it (or,
 * optionally, when the medication class changes); it ends on the day its supply ran out.
 */
import { runGapModel, type CarryOverRules } from './gap-model';
import type { MedicationEvent } from './medication-event';
import type { PatientWindows } from './windows';

export type GapUnit = 'days' | 'weeks' | 'months' | 'years' | 'percent';

export type EpisodeSettings = CarryOverRules & {
  maximumPermissibleGap: number;
  /** `percent`: a share of the supply of the event before the gap (may exceed 100). */
  maximumPermissibleGapUnit: GapUnit;
  /** Add the permissible gap to the end of episodes that ended with a longer gap. */
  appendMaximumGapToEpisode: boolean;
  medicationChangeMeansNewEpisode: boolean;
  /** Whether supply carries over between events (AdhereR turns it off for CMA1–CMA4). */
  carryOver: boolean;
};

export const DEFAULT_EPISODE_SETTINGS: EpisodeSettings = {
  carryOnlyForSameMedication: false,
  considerDosageChange: false,
  maximumPermissibleGap: 90,
  maximumPermissibleGapUnit: 'days',
  appendMaximumGapToEpisode: false,
  medicationChangeMeansNewEpisode: false,
  carryOver: true,
};

export type TreatmentEpisode = {
  /** Numbered from 1 within the patient. */
  episode: number;
  start: number;
  end: number;
  /**
   * Gap days after the episode's last event (to the next event, or to the follow-up end), truncated to
   * whole days as AdhereR 0.8.1 reports them (its episode table stores them as integers; only
   * dose-rescaled carry-over makes them fractional). The episode's end uses the exact gap.
   */
  endGapDays: number;
};

/** AdhereR converts gap units to days with these factors (months and years as average lengths). */
const DAYS_PER_GAP_UNIT: Record<Exclude<GapUnit, 'percent'>, number> = { days: 1, weeks: 7, months: 30, years: 365 };

function permissibleGap(settings: EpisodeSettings, event: MedicationEvent): number {
  if (settings.maximumPermissibleGapUnit === 'percent') return (event.duration * settings.maximumPermissibleGap) / 100;
  return settings.maximumPermissibleGap * DAYS_PER_GAP_UNIT[settings.maximumPermissibleGapUnit];
}

/** `followUpEvents`: the patient's events inside the follow-up window, sorted by day. */
export function computeTreatmentEpisodes(
  followUpEvents: readonly MedicationEvent[],
  windows: Pick<PatientWindows, 'followUpEnd'>,
  settings: EpisodeSettings,
): TreatmentEpisode[] {
  const episodes: TreatmentEpisode[] = [];
  if (followUpEvents.length === 0) return episodes;
  const { intervals, gaps } = runGapModel(followUpEvents, 0, followUpEvents.length, windows.followUpEnd, settings, settings.carryOver);
  let start = followUpEvents[0]!.day;
  for (let index = 0; index < followUpEvents.length; index += 1) {
    const event = followUpEvents[index]!;
    const next = followUpEvents[index + 1];
    const gap = gaps[index]!;
    const gapTooLong = gap > permissibleGap(settings, event);
    const medicationChanges =
      next !== undefined && settings.medicationChangeMeansNewEpisode && next.medicationClass !== event.medicationClass;
    if (next !== undefined && !gapTooLong && !medicationChanges) continue;
    // The supply ran out `gap` days before the end of the interval.
    let end = next === undefined && !gapTooLong ? windows.followUpEnd : event.day + intervals[index]! - gap;
    if (gapTooLong && settings.appendMaximumGapToEpisode) end += permissibleGap(settings, event);
    episodes.push({ episode: episodes.length + 1, start, end, endGapDays: Math.trunc(gap) });
    if (next !== undefined) start = next.day;
  }
  return episodes;
}
