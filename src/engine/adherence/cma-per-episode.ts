/**
 * CMA per treatment episode (AdhereR's CMA_per_episode, DEFINITIONS.md §4): the episodes of the whole
 * follow-up window, each intersected with the observation window; the chosen CMA is computed with the
 * episode as follow-up window and the intersection as observation window. Episodes outside the
 * observation window are left out (their numbers are kept).
 */
import { sortEventsByDay, type MedicationEvent } from './medication-event';
import { computeCmaInWindows, eventsInFollowUp, usesCarryOver, type CmaSettings, type CmaType } from './simple-cma';
import { computeTreatmentEpisodes, type EpisodeSettings, type TreatmentEpisode } from './treatment-episodes';
import { computePatientWindows } from './windows';

/** Episode rules; carry-over follows the CMA (off for CMA1–CMA4, as in AdhereR). */
export type EpisodeRules = Omit<EpisodeSettings, 'carryOver' | 'carryOnlyForSameMedication' | 'considerDosageChange'>;

export type EpisodeCma = TreatmentEpisode & { value: number | null };

export function computeCmaPerEpisode(
  type: CmaType,
  events: readonly MedicationEvent[],
  settings: CmaSettings,
  episodeRules: EpisodeRules,
): EpisodeCma[] {
  if (events.length === 0) return [];
  const sorted = sortEventsByDay(events);
  const windows = computePatientWindows(sorted[0]!.day, settings);
  const followUpEvents = eventsInFollowUp(sorted, windows);
  const episodes = computeTreatmentEpisodes(followUpEvents, windows, { ...settings, ...episodeRules, carryOver: usesCarryOver(type) });
  const results: EpisodeCma[] = [];
  for (const episode of episodes) {
    const observationStart = Math.max(episode.start, windows.observationStart);
    const observationEnd = Math.min(episode.end, windows.observationEnd);
    if (!(observationStart < observationEnd)) continue;
    const episodeWindows = { followUpStart: episode.start, followUpEnd: episode.end, observationStart, observationEnd };
    const value = computeCmaInWindows(type, eventsInFollowUp(followUpEvents, episodeWindows), episodeWindows, settings);
    results.push({ ...episode, value });
  }
  return results;
}
