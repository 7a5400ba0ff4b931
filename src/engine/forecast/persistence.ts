/**
 * Persistence on therapy for the demand forecast: treatment episodes with a 60-day permissible gap (the
 * adherence engine's episode rule, the portal's persistence definition) and their Kaplan–Meier curve.
 * The curve is built once as a sorted step function, so evaluating it at many times costs a binary search
 * each; it equals src/engine/aggregation/kaplan-meier.ts at every time (property-tested).
 */
import { DEFAULT_EPISODE_SETTINGS, type EpisodeSettings } from '../adherence/treatment-episodes';
import { computeTreatmentEpisodes } from '../adherence/treatment-episodes';
import type { MedicationEvent } from '../adherence/medication-event';
import type { SurvivalSubject } from '../aggregation/kaplan-meier';

/** Days without supply after which a patient counts as having stopped (issue 15: 60-day permissible gap). */
export const PERMISSIBLE_GAP_DAYS = 60;

export const FORECAST_EPISODE_SETTINGS: EpisodeSettings = {
  ...DEFAULT_EPISODE_SETTINGS,
  maximumPermissibleGap: PERMISSIBLE_GAP_DAYS,
  maximumPermissibleGapUnit: 'days',
};

/** One dispensing: day number, units dispensed, days' supply. */
export type Fill = { day: number; units: number; daysSupply: number };

export type Episode = {
  start: number;
  /** The day the supply ran out (stopped), or the as-of day (still on therapy). */
  end: number;
  /** True when the episode ended with a gap longer than the permissible gap before the as-of day. */
  stopped: boolean;
  /** The episode's fills, in day order. */
  fills: Fill[];
};

/** A patient's episodes from fills before `asOf` (sorted by day), followed up to `asOf`. */
export function episodesOf(fills: readonly Fill[], asOf: number): Episode[] {
  if (fills.length === 0) return [];
  const events: MedicationEvent[] = fills.map((fill) => ({ day: fill.day, duration: fill.daysSupply, dose: 1, medicationClass: '' }));
  const episodes = computeTreatmentEpisodes(events, { followUpEnd: asOf }, FORECAST_EPISODE_SETTINGS);
  return episodes.map((episode, index) => {
    const next = episodes[index + 1];
    const episodeFills = fills.filter((fill) => fill.day >= episode.start && (next === undefined || fill.day < next.start));
    // The last episode runs to the follow-up end unless its gap was too long (then it ends when supply ran out).
    const stopped = next !== undefined || episode.end < asOf;
    return { start: episode.start, end: episode.end, stopped, fills: episodeFills };
  });
}

export function survivalSubject(episode: Episode): SurvivalSubject {
  return { time: Math.max(0, episode.end - episode.start), event: episode.stopped };
}

/** S(t) as a step function: `times` ascending event times, `values` S just after each. */
export type SurvivalCurve = { times: number[]; values: number[] };

export function buildSurvivalCurve(subjects: readonly SurvivalSubject[]): SurvivalCurve {
  const sorted = [...subjects].sort((left, right) => left.time - right.time);
  const times: number[] = [];
  const values: number[] = [];
  let survival = 1;
  let index = 0;
  while (index < sorted.length) {
    const time = sorted[index]!.time;
    const atRisk = sorted.length - index;
    let events = 0;
    while (index < sorted.length && sorted[index]!.time === time) {
      if (sorted[index]!.event) events += 1;
      index += 1;
    }
    if (events === 0) continue;
    survival *= 1 - events / atRisk;
    times.push(time);
    values.push(survival);
  }
  return { times, values };
}

/** S(t): 1 before the first event; past the last observed time it stays at its last value (see decision 040). */
export function survivalAt(curve: SurvivalCurve, time: number): number {
  let low = 0;
  let high = curve.times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (curve.times[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? 1 : curve.values[low - 1]!;
}
