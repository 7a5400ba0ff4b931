import { describe, expect, it } from 'vitest';
import { buildRows, splitByTime, weekBoundaries } from './dataset';
import { computeFeatures, computeLabel, featureCount, featureSpecs } from './features';
import { emptyHistory, type PatientHistory } from './history';
import { simulateHistories } from './simulate-histories';

/** A copy holding only what was known before `boundary`: later days zeroed, later dispensings dropped. */
function truncated(history: PatientHistory, boundary: number): PatientHistory {
  const copy = emptyHistory(history.patient, history.startDay, history.dayCount);
  for (const key of ['scheduled', 'confirmed', 'outbound', 'replies', 'optOuts'] as const)
    copy[key].set(history[key].subarray(0, boundary));
  copy.dispensings = history.dispensings.filter((dispensing) => dispensing.day < history.startDay + boundary);
  return copy;
}

/** The same history with the future rewritten: everything from `boundary` on changed. */
function futureChanged(history: PatientHistory, boundary: number): PatientHistory {
  const copy = truncated(history, boundary);
  for (let index = boundary; index < history.dayCount; index += 1) {
    copy.scheduled[index] = 3;
    copy.confirmed[index] = index % 2;
    copy.outbound[index] = 2;
    copy.replies[index] = 1;
    copy.optOuts[index] = 1;
  }
  copy.dispensings = [...copy.dispensings, { productId: 'future', day: history.startDay + boundary, daysSupply: 90 }];
  return copy;
}

const histories = simulateHistories({ patients: 40, weeks: 16, seed: 11 });

describe('risk features', () => {
  it('names every feature once', () => {
    expect(new Set(featureSpecs.map((spec) => spec.name)).size).toBe(featureCount);
  });

  it('use no data from the week predicted or later (no leakage across the time split)', () => {
    const split = splitByTime(histories);
    expect(Math.max(...split.trainBoundaries)).toBeLessThan(Math.min(...split.testBoundaries));
    for (const history of histories) {
      for (const boundary of split.testBoundaries) {
        const expected = computeFeatures(truncated(history, boundary), boundary);
        expect(computeFeatures(history, boundary)).toEqual(expected);
        expect(computeFeatures(futureChanged(history, boundary), boundary)).toEqual(expected);
      }
    }
  });

  it('training rows are the scoring function applied at each boundary (one function)', () => {
    const boundaries = weekBoundaries(histories[0]!.dayCount);
    const rows = buildRows(histories, boundaries);
    expect(rows.size).toBeGreaterThan(0);
    for (let row = 0; row < rows.size; row += 97) {
      const history = histories[rows.patientIndex[row]!]!;
      expect(Array.from(rows.features.subarray(row * featureCount, (row + 1) * featureCount))).toEqual(
        Array.from(computeFeatures(history, rows.boundary[row]!)),
      );
      expect(rows.labels[row]).toBe(computeLabel(history, rows.boundary[row]!));
    }
  });

  it('labels the next 7 days: below 0.8 confirmed is 1', () => {
    const history = emptyHistory({ id: 'p', persona: null, ageBand: null, conditions: [], productCount: 1 }, 0, 14);
    history.scheduled.fill(2);
    history.confirmed.fill(2);
    expect(computeLabel(history, 0)).toBe(0);
    history.confirmed[3] = 0;
    history.confirmed[4] = 0; // 10 of 14 = 0.71
    expect(computeLabel(history, 0)).toBe(1);
    expect(computeLabel(history, 8)).toBeNull(); // days 8–14 are not all recorded
    history.scheduled.fill(0, 7);
    expect(computeLabel(history, 7)).toBeNull();
  });

  it('supply: days left, uncovered days and late refills from dispensings before the boundary', () => {
    const history = emptyHistory({ id: 'p', persona: null, ageBand: null, conditions: [], productCount: 1 }, 100, 100);
    history.dispensings = [
      { productId: 'a', day: 40, daysSupply: 30 },
      { productId: 'a', day: 80, daysSupply: 30 }, // 10 days late
      { productId: 'a', day: 150, daysSupply: 30 }, // after the boundary below
    ];
    const features = computeFeatures(history, 5); // day 105
    expect(features[5]! * 30).toBeCloseTo(5); // covered until 110
    expect(features[6]).toBe(0);
    expect(features[7]! * 30).toBeCloseTo(5); // days 75–79 in the window 75–104
    expect(features[8]).toBe(1);
  });
});
