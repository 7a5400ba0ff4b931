/** CMA1–CMA9 against AdhereR 0.8.1's own output for its med.events data (all patients, all settings). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CMA_SETTINGS, computeCma, type CmaSettings, type CmaType } from './simple-cma';
import { expectReferenceValue } from './test-support/expect-reference';
import { field, groupBy, readMedicationEvents, readReference } from './test-support/reference-files';

const eventsByPatient = groupBy(readMedicationEvents(), (event) => event.patientId);

const referenceSettings: { file: string; settings: CmaSettings }[] = [
  { file: 'cma1_9_vignette_ow182_365.csv', settings: { ...DEFAULT_CMA_SETTINGS, observationStart: 182, observationDuration: 365 } },
  { file: 'cma1_9_defaults_ow0_730.csv', settings: DEFAULT_CMA_SETTINGS },
  {
    file: 'cma5_9_vignette_ow182_365_sameMed_dose.csv',
    settings: {
      ...DEFAULT_CMA_SETTINGS,
      observationStart: 182,
      observationDuration: 365,
      carryOnlyForSameMedication: true,
      considerDosageChange: true,
    },
  },
  { file: 'cma7_8_9_ow374_294.csv', settings: { ...DEFAULT_CMA_SETTINGS, observationStart: 374, observationDuration: 294 } },
];

describe.each(referenceSettings)('simple CMAs match $file', ({ file, settings }) => {
  const rows = readReference(file);
  const types = Object.keys(rows[0] ?? {}).filter((column) => column.startsWith('CMA')) as CmaType[];

  it.each(types)('%s for every patient', (type) => {
    expect(rows).toHaveLength(100);
    for (const row of rows) {
      const patientId = field(row, 'PATIENT_ID');
      const events = eventsByPatient.get(patientId) ?? [];
      expectReferenceValue(computeCma(type, events, settings), row[type], `patient ${patientId} ${type}`);
    }
  });
});
