/** The values AdhereR's own vignette prints (rounded there, so compared within the stated tolerance). */
import { describe, expect, it } from 'vitest';
import { computeCmaPerEpisode } from './cma-per-episode';
import { DEFAULT_CMA_SETTINGS, computeCma, type CmaType } from './simple-cma';
import { computeSlidingWindowCma } from './sliding-window-cma';
import { field, groupBy, readMedicationEvents, readReference } from './test-support/reference-files';

const eventsByPatient = groupBy(readMedicationEvents(), (event) => event.patientId);
const vignetteWindows = { ...DEFAULT_CMA_SETTINGS, observationStart: 182, observationDuration: 365 };
const episodeRules = {
  maximumPermissibleGap: 180,
  maximumPermissibleGapUnit: 'days',
  appendMaximumGapToEpisode: false,
  medicationChangeMeansNewEpisode: true,
} as const;

function computedValue(setting: string, patientId: string, key: string): number | null {
  const events = eventsByPatient.get(patientId) ?? [];
  const simple = /^(CMA\d)(_percent)?$/.exec(key);
  if (simple) {
    const type = simple[1] as CmaType;
    const settings = type === 'CMA8' ? { ...DEFAULT_CMA_SETTINGS, observationStart: 374, observationDuration: 294 } : vignetteWindows;
    const value = computeCma(type, events, settings);
    return value === null ? null : simple[2] ? value * 100 : value;
  }
  const numbered = /^(ep|w)(\d+)$/.exec(key);
  if (!numbered) throw new Error(`unknown key ${key}`);
  const number = Number(numbered[2]);
  if (numbered[1] === 'ep') {
    expect(setting).toContain('CMA_per_episode CMA9');
    return (
      computeCmaPerEpisode('CMA9', events, DEFAULT_CMA_SETTINGS, episodeRules).find((episode) => episode.episode === number)?.value ?? null
    );
  }
  expect(setting).toContain('CMA_sliding_window CMA9 120 d step 120');
  return (
    computeSlidingWindowCma('CMA9', events, DEFAULT_CMA_SETTINGS, { start: 0, duration: 120, step: 120 }).find(
      (window) => window.window === number,
    )?.value ?? null
  );
}

describe('vignette_reference_values.csv', () => {
  it('every printed value is reproduced within its printed precision', () => {
    const rows = readReference('vignette_reference_values.csv');
    expect(rows).toHaveLength(23);
    for (const row of rows) {
      const key = field(row, 'key');
      const actual = computedValue(field(row, 'setting'), field(row, 'PATIENT_ID'), key);
      expect(Math.abs((actual ?? NaN) - Number(field(row, 'printed_value'))), `${field(row, 'PATIENT_ID')} ${key}`).toBeLessThanOrEqual(
        Number(field(row, 'tolerance')),
      );
    }
  });
});
