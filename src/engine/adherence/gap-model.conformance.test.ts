/** The carry-over gap model, event by event, against AdhereR 0.8.1's event-level output (OW 182 + 365). */
import { describe, expect, it } from 'vitest';
import { POOLED_CARRY_OVER, runGapModel } from './gap-model';
import type { MedicationEvent } from './medication-event';
import { expectReferenceValue } from './test-support/expect-reference';
import { field, groupBy, readReference, referenceDay } from './test-support/reference-files';

const variants = [
  { file: 'event_gaps_vignette_nocarry.csv', carryOver: false, carryIn: false },
  { file: 'event_gaps_vignette_within.csv', carryOver: true, carryIn: false },
  { file: 'event_gaps_vignette_within_into.csv', carryOver: true, carryIn: true },
];

describe.each(variants)('gap model matches $file', ({ file, carryOver, carryIn }) => {
  it('for every event of every patient (interval, carry-over in, gap)', () => {
    const rowsByPatient = groupBy(readReference(file), (row) => field(row, 'PATIENT_ID'));
    expect(rowsByPatient.size).toBe(100);
    let comparedEvents = 0;
    for (const [patientId, rows] of rowsByPatient) {
      const events: MedicationEvent[] = rows.map((row) => ({
        day: referenceDay(field(row, 'DATE')),
        duration: Number(field(row, 'DURATION')),
        dose: Number(field(row, 'PERDAY')),
        medicationClass: field(row, 'CATEGORY'),
      }));
      const observationStart = referenceDay(field(rows[0]!, '.OBS.START.DATE'));
      const observationEnd = referenceDay(field(rows[0]!, '.OBS.END.DATE'));
      const isBefore = (event: MedicationEvent) => event.day < observationStart;
      const inModel = (event: MedicationEvent) => event.day <= observationEnd && (carryIn || !isBefore(event));
      const first = events.findIndex(inModel);
      const end = first < 0 ? 0 : first + events.slice(first).filter(inModel).length;
      const model = runGapModel(events, Math.max(first, 0), end, observationEnd, POOLED_CARRY_OVER, carryOver);
      events.forEach((event, index) => {
        const row = rows[index]!;
        const label = `patient ${patientId} event ${index + 1}`;
        const modelIndex = index - first;
        const modelled = first >= 0 && index >= first && index < end;
        expectReferenceValue(modelled ? model.carriesIn[modelIndex]! : null, row['.CARRY.OVER.FROM.BEFORE'], `${label} carry-over`);
        expectReferenceValue(modelled ? model.gaps[modelIndex]! : null, row['gap.days'], `${label} gap`);
        // AdhereR reports no interval for events before the window, although they take part in the model.
        expectReferenceValue(
          modelled && !isBefore(event) ? model.intervals[modelIndex]! : null,
          row['event.interval'],
          `${label} interval`,
        );
        if (modelled) comparedEvents += 1;
      });
    }
    expect(comparedEvents).toBeGreaterThan(450);
  });
});
