import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil, isoFromDayNumber } from './day-number';
import { addTimeSpan, computePatientWindows } from './windows';

describe('patient windows', () => {
  const first = dayNumberFromCivil(2033, 4, 26);

  it('offset the follow-up window from the first event and the observation window from the follow-up start', () => {
    expect(
      computePatientWindows(first, { followUpStart: 10, followUpDuration: 730, observationStart: 182, observationDuration: 365 }),
    ).toEqual({
      followUpStart: first + 10,
      followUpEnd: first + 740,
      observationStart: first + 192,
      observationEnd: first + 557,
    });
  });

  it('add weeks exactly and months/years on the calendar', () => {
    expect(addTimeSpan(first, { amount: 2, unit: 'weeks' })).toBe(first + 14);
    expect(isoFromDayNumber(addTimeSpan(first, { amount: 1, unit: 'months' }))).toBe('2033-05-26');
    expect(isoFromDayNumber(addTimeSpan(first, { amount: 2, unit: 'years' }))).toBe('2035-04-26');
  });

  it('reject an observation window outside the follow-up window', () => {
    expect(() =>
      computePatientWindows(first, { followUpStart: 0, followUpDuration: 365, observationStart: 182, observationDuration: 365 }),
    ).toThrow(RangeError);
  });
});
