import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePdc, type PdcFill } from './pdc';
import { computePqaPdc } from './pqa-pdc';
import { field, groupBy, readMedicationEvents, readReference, referenceDay, referenceValue } from './test-support/reference-files';

function expectSameValue(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(Math.abs((actual ?? NaN) - expected)).toBeLessThanOrEqual(1e-9);
}

describe('computePdc', () => {
  it('shifts an early refill of the same drug forward', () => {
    const fills: PdcFill[] = [
      { day: 0, daysSupply: 30, drug: 'A' },
      { day: 20, daysSupply: 30, drug: 'A' },
    ];
    expect(computePdc({ fills, periodStart: 0, periodEnd: 100 })).toEqual({ coveredDays: 60, periodDays: 100, pdc: 0.6 });
  });

  it('counts a day covered by two drugs once (PQA example 2)', () => {
    const fills: PdcFill[] = [
      { day: 0, daysSupply: 90, drug: 'A' },
      { day: 0, daysSupply: 90, drug: 'B' },
    ];
    expect(computePdc({ fills, periodStart: 0, periodEnd: 365 }).coveredDays).toBe(90);
  });

  it('carries supply from before the period in, unless told not to, and truncates at the period end', () => {
    const fills: PdcFill[] = [
      { day: -10, daysSupply: 30, drug: 'A' },
      { day: 90, daysSupply: 30, drug: 'A' },
    ];
    expect(computePdc({ fills, periodStart: 0, periodEnd: 100 }).coveredDays).toBe(30);
    expect(computePdc({ fills, periodStart: 0, periodEnd: 100, carryIn: false }).coveredDays).toBe(10);
  });

  it('rejects an empty period', () => {
    expect(() => computePdc({ fills: [], periodStart: 5, periodEnd: 5 })).toThrow(RangeError);
  });

  it('stays within [0, 1] and does not depend on the order of the fills', () => {
    const fill = fc.record({
      day: fc.integer({ min: -50, max: 150 }),
      daysSupply: fc.integer({ min: 0, max: 90 }),
      drug: fc.constantFrom('A', 'B', 'C'),
    });
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), (fills, seed) => {
        const result = computePdc({ fills, periodStart: 0, periodEnd: 100 });
        expect(result.pdc).toBeGreaterThanOrEqual(0);
        expect(result.pdc).toBeLessThanOrEqual(1);
        const shuffled = [...fills].sort(
          (left, right) =>
            ((left.day * 7919 + left.daysSupply * 31 + seed) % 101) - ((right.day * 7919 + right.daysSupply * 31 + seed) % 101),
        );
        expect(computePdc({ fills: shuffled, periodStart: 0, periodEnd: 100 }).coveredDays).toBe(result.coveredDays);
      }),
    );
  });

  it('never loses coverage when a fill is added', () => {
    const fill = fc.record({
      day: fc.integer({ min: -50, max: 150 }),
      daysSupply: fc.integer({ min: 0, max: 90 }),
      drug: fc.constantFrom('A', 'B'),
    });
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 10 }), fill, (fills, extra) => {
        const before = computePdc({ fills, periodStart: 0, periodEnd: 100 }).coveredDays;
        expect(computePdc({ fills: [...fills, extra], periodStart: 0, periodEnd: 100 }).coveredDays).toBeGreaterThanOrEqual(before);
      }),
    );
  });
});

describe('PQA PDC against the reference files', () => {
  it("reproduces PQA's published calculator examples", () => {
    const claims = groupBy(readReference('pqa_examples_claims.csv'), (row) => field(row, 'case'));
    const expectedCases = readReference('pqa_examples_pdc.csv');
    expect(expectedCases).toHaveLength(4);
    for (const expected of expectedCases) {
      const fills = (claims.get(field(expected, 'case')) ?? []).map((row) => ({
        day: referenceDay(field(row, 'fill')),
        daysSupply: Number(field(row, 'days')),
        drug: field(row, 'drug'),
      }));
      const periodEnd = referenceDay(field(expected, 'period_end')) + 1;
      const result = computePqaPdc({ fills, periodStart: referenceDay('2018-01-01'), periodEnd });
      expect(result.indexDay).toBe(referenceDay(field(expected, 'IPSD')));
      expect(result.treatmentDays).toBe(Number(field(expected, 'treatment_days')));
      expect(result.coveredDays).toBe(Number(field(expected, 'covered_days')));
      expect(result.pdc).toBeCloseTo(Number(field(expected, 'PDC')), 12);
      expect(result.distinctFillDays).toBe(Number(field(expected, 'fills_on_distinct_dates')));
      expect(String(result.eligible).toUpperCase()).toBe(field(expected, 'eligible_2_distinct_dates'));
      expect(result.adherent === null ? 'NA' : String(result.adherent).toUpperCase()).toBe(field(expected, 'adherent_80'));
    }
  });

  it('matches pdc_med_events_ow182_365.csv for all 100 patients (per-drug shift, union; pooled with carry-in)', () => {
    const eventsByPatient = groupBy(readMedicationEvents(), (event) => event.patientId);
    const expectedRows = readReference('pdc_med_events_ow182_365.csv');
    expect(expectedRows).toHaveLength(100);
    for (const expected of expectedRows) {
      const events = eventsByPatient.get(field(expected, 'PATIENT_ID')) ?? [];
      const fills = events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass }));
      const periodStart = referenceDay(field(expected, 'period_start'));
      const periodEnd = referenceDay(field(expected, 'period_end_incl')) + 1;
      const pqa = computePqaPdc({ fills, periodStart, periodEnd });
      const ipsd = field(expected, 'IPSD');
      expect(pqa.indexDay).toBe(ipsd === 'NA' ? null : referenceDay(ipsd));
      expect(pqa.treatmentDays).toBe(referenceValue(field(expected, 'treatment_days')) ?? 0);
      expect(pqa.distinctFillDays).toBe(Number(field(expected, 'distinct_fill_dates')));
      expectSameValue(pqa.pdc, referenceValue(field(expected, 'PDC_per_drug_union')));
      expect(String(pqa.eligible).toUpperCase()).toBe(field(expected, 'PQA_eligible_2fills'));
      expect(pqa.adherent === null ? 'NA' : String(pqa.adherent).toUpperCase()).toBe(field(expected, 'PQA_adherent_80'));
      // All fills as one drug: the pooled PDC, with and without supply carried in from before the period.
      const pooled = fills.map((fill) => ({ ...fill, drug: 'pooled' }));
      expectSameValue(computePqaPdc({ fills: pooled, periodStart, periodEnd }).pdc, referenceValue(field(expected, 'PDC_pooled')));
      const firstDay = Math.min(...events.map((event) => event.day));
      const inFollowUp = pooled.filter((fill) => fill.day <= firstDay + 730);
      expectSameValue(
        computePdc({ fills: inFollowUp, periodStart, periodEnd }).pdc,
        referenceValue(field(expected, 'PDC_full_period_carry_in')),
      );
    }
  });
});
