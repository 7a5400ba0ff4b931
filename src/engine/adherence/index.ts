/** The adherence engine's public surface: AdhereR 0.8.1 CMAs, episodes, windows, PQA PDC, MPR, dose adherence. */
export { computeCmaPerEpisode, type EpisodeCma, type EpisodeRules } from './cma-per-episode';
export { isoFromDayNumber, dayNumberFromCivil, dayNumberFromIso, civilFromDayNumber, isValidCivil } from './day-number';
export { computeDoseAdherence, type DoseAdherence, type DoseEvent } from './dose-adherence';
export { POOLED_CARRY_OVER, runGapModel, type CarryOverRules, type GapModel } from './gap-model';
export { sortEventsByDay, type MedicationEvent } from './medication-event';
export { computeMpr, MPR_FORMS, type MprForm } from './mpr';
export { computePdc, type PdcFill, type PdcResult } from './pdc';
export { computePqaPdc, PQA_ADHERENT_THRESHOLD, type PqaPdcResult } from './pqa-pdc';
export {
  CMA_TYPES,
  DEFAULT_CMA_SETTINGS,
  computeCma,
  computeCmaInWindows,
  eventsInFollowUp,
  type CmaSettings,
  type CmaType,
} from './simple-cma';
export { computeSlidingWindowCma, type SlidingWindowSettings, type WindowCma } from './sliding-window-cma';
export {
  computeTreatmentEpisodes,
  DEFAULT_EPISODE_SETTINGS,
  type EpisodeSettings,
  type GapUnit,
  type TreatmentEpisode,
} from './treatment-episodes';
export {
  computePatientWindows,
  DEFAULT_WINDOW_SETTINGS,
  type PatientWindows,
  type TimeSpan,
  type TimeUnit,
  type WindowSettings,
} from './windows';
