/** Treatment episodes against AdhereR 0.8.1's compute.treatment.episodes on med.events. */
import { describe, expect, it } from 'vitest';
import { isoFromDayNumber } from './day-number';
import { eventsInFollowUp } from './simple-cma';
import { computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS } from './treatment-episodes';
import { field, groupBy, readMedicationEvents, readReference } from './test-support/reference-files';
import { computePatientWindows, DEFAULT_WINDOW_SETTINGS } from './windows';

const eventsByPatient = groupBy(readMedicationEvents(), (event) => event.patientId);

describe.each([true, false])('treatment episodes, medication change = new episode: %s', (medicationChangeMeansNewEpisode) => {
  it('match treatment_episodes_medchange_*_all.csv row by row', () => {
    const expected = readReference(`treatment_episodes_medchange_${String(medicationChangeMeansNewEpisode).toUpperCase()}_all.csv`).map(
      (row) =>
        [
          field(row, 'PATIENT_ID'),
          field(row, 'episode.ID'),
          field(row, 'episode.start'),
          field(row, 'end.episode.gap.days'),
          field(row, 'episode.duration'),
          field(row, 'episode.end'),
        ].join(','),
    );
    const actual: string[] = [];
    for (const [patientId, events] of eventsByPatient) {
      const windows = computePatientWindows(events[0]!.day, DEFAULT_WINDOW_SETTINGS);
      const episodes = computeTreatmentEpisodes(eventsInFollowUp(events, windows), windows, {
        ...DEFAULT_EPISODE_SETTINGS,
        carryOnlyForSameMedication: true,
        considerDosageChange: true,
        maximumPermissibleGap: 180,
        medicationChangeMeansNewEpisode,
      });
      for (const episode of episodes) {
        actual.push(
          [
            patientId,
            episode.episode,
            isoFromDayNumber(episode.start),
            episode.endGapDays,
            episode.end - episode.start,
            isoFromDayNumber(episode.end),
          ].join(','),
        );
      }
    }
    expect(actual).toEqual(expected);
  });
});
