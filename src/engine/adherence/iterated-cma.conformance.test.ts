/** CMA per episode and in sliding windows against AdhereR 0.8.1's output for med.events. */
import { describe, expect, it } from 'vitest';
import { computeCmaPerEpisode } from './cma-per-episode';
import { isoFromDayNumber } from './day-number';
import { DEFAULT_CMA_SETTINGS, type CmaType } from './simple-cma';
import { computeSlidingWindowCma } from './sliding-window-cma';
import { expectReferenceValue } from './test-support/expect-reference';
import { field, groupBy, readMedicationEvents, readReference, type ReferenceRow } from './test-support/reference-files';

const eventsByPatient = groupBy(readMedicationEvents(), (event) => event.patientId);
const episodeRules = {
  maximumPermissibleGap: 180,
  maximumPermissibleGapUnit: 'days',
  appendMaximumGapToEpisode: false,
  medicationChangeMeansNewEpisode: true,
} as const;

/** Compares computed rows with reference rows keyed by patient and number: same set of keys, same fields. */
function expectRows(
  reference: readonly ReferenceRow[],
  numberColumn: string,
  computed: Map<string, { start: number; end: number; value: number | null; extra?: Record<string, string> }>,
  label: string,
): void {
  const expectedKeys = reference.map((row) => `${field(row, 'PATIENT_ID')}#${field(row, numberColumn)}`);
  expect([...computed.keys()].sort(), `${label}: rows`).toEqual([...expectedKeys].sort());
  for (const row of reference) {
    const key = `${field(row, 'PATIENT_ID')}#${field(row, numberColumn)}`;
    const actual = computed.get(key)!;
    const startColumn = numberColumn === 'episode.ID' ? 'episode.start' : 'window.start';
    const endColumn = numberColumn === 'episode.ID' ? 'episode.end' : 'window.end';
    expect(isoFromDayNumber(actual.start), `${label} ${key} start`).toBe(field(row, startColumn));
    expect(isoFromDayNumber(actual.end), `${label} ${key} end`).toBe(field(row, endColumn));
    for (const [column, text] of Object.entries(actual.extra ?? {})) expect(text, `${label} ${key} ${column}`).toBe(field(row, column));
    expectReferenceValue(actual.value, row.CMA, `${label} ${key}`);
  }
}

function perEpisode(type: CmaType, patientIds: Iterable<string>) {
  const computed = new Map<string, { start: number; end: number; value: number | null; extra: Record<string, string> }>();
  for (const patientId of patientIds) {
    for (const episode of computeCmaPerEpisode(type, eventsByPatient.get(patientId) ?? [], DEFAULT_CMA_SETTINGS, episodeRules)) {
      computed.set(`${patientId}#${episode.episode}`, {
        ...episode,
        extra: { 'end.episode.gap.days': String(episode.endGapDays), 'episode.duration': String(episode.end - episode.start) },
      });
    }
  }
  return computed;
}

function sliding(type: CmaType, patientIds: Iterable<string>, step: number) {
  const computed = new Map<string, { start: number; end: number; value: number | null }>();
  for (const patientId of patientIds) {
    for (const window of computeSlidingWindowCma(type, eventsByPatient.get(patientId) ?? [], DEFAULT_CMA_SETTINGS, {
      start: 0,
      duration: 120,
      step,
    })) {
      computed.set(`${patientId}#${window.window}`, window);
    }
  }
  return computed;
}

const cmaTypes: CmaType[] = ['CMA1', 'CMA2', 'CMA3', 'CMA4', 'CMA5', 'CMA6', 'CMA7', 'CMA8', 'CMA9'];

describe('CMA per episode', () => {
  const reference = groupBy(readReference('per_episode_CMA1_9_all.csv'), (row) => field(row, 'CMA.type'));

  it.each(cmaTypes)('%s matches per_episode_CMA1_9_all.csv for every patient and episode', (type) => {
    const rows = reference.get(type) ?? [];
    expect(rows.length).toBeGreaterThan(100);
    expectRows(rows, 'episode.ID', perEpisode(type, eventsByPatient.keys()), type);
  });

  it('CMA9 matches the vignette table for patients 37 and 76', () => {
    expectRows(readReference('per_episode_CMA9_vignette_pat37_76.csv'), 'episode.ID', perEpisode('CMA9', ['37', '76']), 'CMA9');
  });
});

describe('CMA in sliding windows', () => {
  const reference = groupBy(readReference('sliding_CMA1_9_120_step120_all.csv'), (row) => field(row, 'CMA.type'));
  // Windows whose lagged CMA8 window is empty: AdhereR crashes or answers 0/NA there, we answer NA.
  const undefinedRows = readReference('sliding_CMA8_undefined_windows.csv');
  const undefinedCma8 = new Set(undefinedRows.map((row) => `${field(row, 'PATIENT_ID')}#${field(row, 'window.ID')}`));
  // When one window fails, AdhereR drops the patient's other windows too: those have no reference value.
  const failedPatients = new Set(
    undefinedRows.filter((row) => field(row, 'adherer_CMA8').startsWith('ERROR')).map((row) => field(row, 'PATIENT_ID')),
  );

  it.each(cmaTypes)('%s matches sliding_CMA1_9_120_step120_all.csv for every patient and window', (type) => {
    const computed = sliding(type, eventsByPatient.keys(), 120);
    expect(computed.size).toBe(600);
    let rows = reference.get(type) ?? [];
    if (type === 'CMA8') {
      for (const key of undefinedCma8) {
        expect(computed.get(key)?.value, `${key} is undefined`).toBeNull();
        computed.delete(key);
      }
      rows = rows.filter((row) => !undefinedCma8.has(`${field(row, 'PATIENT_ID')}#${field(row, 'window.ID')}`));
      const referenceKeys = new Set(rows.map((row) => `${field(row, 'PATIENT_ID')}#${field(row, 'window.ID')}`));
      for (const key of [...computed.keys()]) {
        if (referenceKeys.has(key)) continue;
        expect(failedPatients.has(key.split('#')[0] ?? ''), `${key} lacks a reference value`).toBe(true);
        computed.delete(key);
      }
      expect(computed.size).toBe(525);
    }
    expectRows(rows, 'window.ID', computed, type);
  });

  it.each([120, 30])('CMA9 matches the vignette windows (step %i) for patients 37 and 76', (step) => {
    expectRows(readReference(`sliding_CMA9_120_step${step}_pat37_76.csv`), 'window.ID', sliding('CMA9', ['37', '76'], step), 'CMA9');
  });
});
