import { describe, expect, it } from 'vitest';
import { isGsm7, measureSms, toGsm7WherePossible } from './sms-encoding';

describe('measureSms', () => {
  it('fits 160 GSM-7 characters in one segment and splits longer texts into 153-character segments', () => {
    expect(measureSms('')).toEqual({ encoding: 'gsm-7', units: 0, segments: 1, remainingInSegment: 160 });
    expect(measureSms('a'.repeat(160))).toMatchObject({ segments: 1, remainingInSegment: 0 });
    expect(measureSms('a'.repeat(161))).toMatchObject({ segments: 2, units: 161 });
    expect(measureSms('a'.repeat(306))).toMatchObject({ segments: 2, remainingInSegment: 0 });
    expect(measureSms('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts extension characters as two septets and never splits an escape pair', () => {
    expect(measureSms('€'.repeat(80))).toMatchObject({ encoding: 'gsm-7', units: 160, segments: 1 });
    expect(measureSms('€'.repeat(81))).toMatchObject({ units: 162, segments: 2 });
    // 152 plain characters then '[': the pair does not fit in the first 153 and moves to the second segment.
    expect(measureSms(`${'a'.repeat(152)}[${'b'.repeat(10)}`)).toMatchObject({ units: 164, segments: 2, remainingInSegment: 153 - 12 });
  });

  it('switches to UCS-2 for a character outside GSM-7: 70, then 67 per segment, in UTF-16 units', () => {
    expect(isGsm7('¿Qué tal? Ñandú')).toBe(false);
    expect(isGsm7('¿Qué? Ñ ü é à')).toBe(true);
    expect(measureSms(`á${'a'.repeat(69)}`)).toMatchObject({ encoding: 'ucs-2', units: 70, segments: 1 });
    expect(measureSms(`á${'a'.repeat(70)}`)).toMatchObject({ encoding: 'ucs-2', units: 71, segments: 2 });
    expect(measureSms('👍')).toMatchObject({ encoding: 'ucs-2', units: 2, segments: 1 });
    // 66 units then an emoji (2 units) does not split the surrogate pair.
    expect(measureSms(`${'a'.repeat(66)}👍${'a'.repeat(10)}`)).toMatchObject({ units: 78, segments: 2, remainingInSegment: 67 - 12 });
  });
});

describe('toGsm7WherePossible', () => {
  it('drops the accents GSM-7 lacks, keeps the ones it has, and leaves emoji', () => {
    expect(toGsm7WherePossible('Aún no, ¿mañana? Tomó “sí” – qué')).toBe('Aun no, ¿mañana? Tomo "si" - qué');
    expect(isGsm7(toGsm7WherePossible('Aún no, ¿mañana?'))).toBe(true);
    expect(isGsm7(toGsm7WherePossible('Tomada ✓'))).toBe(false);
  });
});
