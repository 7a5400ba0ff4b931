import { describe, expect, it } from 'vitest';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import {
  followJourney,
  type JourneyLabels,
  type JourneyMember,
  MONTH_DAYS,
  sliceJourneyGroup,
  summariseJourney,
} from './compliance-journey';
import type { ShownCount } from './small-cell-suppression';

const period = { start: 1000, end: 1365 };
const fill = (day: number, duration = 30): MedicationEvent => ({ day, duration, dose: 1, medicationClass: 'statin' });
const labels: JourneyLabels = {
  persona: new Map([
    ['routine', 'Routine'],
    ['sceptic', 'Sceptic'],
  ]),
  product: new Map([['statin', 'Atorva 20']]),
};

/** A member with the same PDC every month, persisting all year (or stopping at `stopDay`). */
const member = (personaKey: string, pdc: number, options: { synthetic?: boolean; stopDay?: number } = {}): JourneyMember => ({
  synthetic: options.synthetic ?? true,
  personaKey,
  productKey: 'statin',
  monthlyPdc: Array.from({ length: 12 }, () => pdc),
  survival: options.stopDay === undefined ? { time: 365, event: false } : { time: options.stopDay, event: true },
});

/** Every shown count in a value: none may be 1–10 for a privacy role. */
function shownCounts(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) value.forEach((entry) => shownCounts(entry, found));
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if ('suppressed' in record && 'display' in record && typeof record.count === 'number') found.push(record.count);
    Object.values(record).forEach((entry) => shownCounts(entry, found));
  }
  return found;
}

function expectNoSingleHiddenGroup(total: ShownCount, groups: readonly ShownCount[]) {
  if (total.suppressed) return;
  const hidden = groups.filter((group) => group.suppressed).length;
  expect(hidden === 0 || hidden >= 2, `${hidden} hidden of ${groups.length}`).toBe(true);
}

describe('followJourney', () => {
  it('starts at the first fill in the period, carrying earlier supply into the months', () => {
    // 30 days from day 990 last to 1019; the fill on 1005 then covers 1020–1049 (same drug: shifted).
    const journey = followJourney([fill(990), fill(1005)], period);
    expect(journey?.index.day).toBe(1005);
    // Month 1 = 1005–1034: covered. Month 2 = 1035–1064: 1035–1049 covered, half.
    expect(journey?.monthlyPdc.slice(0, 3)).toEqual([1, 0.5, 0]);
    // Without the earlier fill, month 2 has nothing.
    expect(followJourney([fill(1005)], period)?.monthlyPdc.slice(0, 2)).toEqual([1, 0]);
  });

  it('leaves months that have not ended by the period’s end empty', () => {
    const journey = followJourney([fill(1300)], period);
    // 65 days to the end: two whole months.
    expect(journey?.monthlyPdc).toEqual([1, 0, null, null, null, null, null, null, null, null, null, null]);
  });

  it('ends persistence at a gap of more than 60 days, else censors it at the period’s end', () => {
    expect(followJourney([fill(1000), fill(1150, 90)], period)?.survival).toEqual({ time: 30, event: true });
    expect(followJourney([fill(1000), fill(1080, 300)], period)?.survival).toEqual({ time: 365, event: false });
  });

  it('is null without a fill in the period', () => {
    expect(followJourney([fill(900)], period)).toBeNull();
    expect(followJourney([], period)).toBeNull();
  });
});

describe('summariseJourney', () => {
  const cohort = [
    ...Array.from({ length: 8 }, () => member('routine', 1)),
    ...Array.from({ length: 4 }, () => member('routine', 0.6, { synthetic: false })),
    ...Array.from({ length: 3 }, () => member('sceptic', 0.2, { stopDay: 2 * MONTH_DAYS + 5 })),
  ];

  it('gives monthly PDC quartiles, bands and the share with PDC ≥ 0.8, by persona too, when not suppressed', () => {
    const figures = summariseJourney(cohort, labels, false);
    const month = figures.pdcByMonth[0]!;
    expect(month.patients.count).toBe(15);
    expect(month.bands.map((band) => band.patients.count)).toEqual([3, 4, 8]);
    expect(month.adherentShare).toBeCloseTo(8 / 15, 12);
    // Sorted: 3 × 0.2, 4 × 0.6, 8 × 1; R type 7 quartiles at positions 3.5, 7, 10.5.
    expect(month.quartiles).toEqual({ q1: 0.6, median: 1, q3: 1 });
    expect(figures.pdcByPersona.map((group) => [group.label, group.patients.count, group.months[0]!.adherentShare])).toEqual([
      ['Routine', 12, 8 / 12],
      ['Sceptic', 3, 0],
    ]);
    expect(figures.cohort).toEqual({
      patients: expect.objectContaining({ count: 15 }),
      synthetic: expect.objectContaining({ count: 11 }),
      hasSynthetic: true,
    });
    // Kaplan–Meier: the 3 sceptics stop in month 3, so 12 of 15 persist from then on.
    expect(figures.persistence.overall.points.map((point) => point.persisting).slice(0, 4)).toEqual([1, 1, 1, 12 / 15]);
    expect(figures.withheld).toEqual([]);
  });

  it('suppresses every small group, and enough others that none can be worked out by subtraction', () => {
    const figures = summariseJourney(cohort, labels, true);
    expect(shownCounts(figures).filter((count) => count > 0 && count < 11)).toEqual([]);
    expect(figures.cohort.patients.count).toBe(15);
    const sceptics = figures.pdcByPersona.find((group) => group.key === 'sceptic')!;
    expect(sceptics.patients.display).toBe('<11');
    expect(sceptics.months[0]!.quartiles).toBeNull();
    expectNoSingleHiddenGroup(
      figures.cohort.patients,
      figures.pdcByPersona.map((group) => group.patients),
    );
    for (const month of figures.pdcByMonth)
      expectNoSingleHiddenGroup(
        month.patients,
        month.bands.map((band) => band.patients),
      );
    expectNoSingleHiddenGroup(
      figures.persistence.overall.patients,
      figures.persistence.byPersona.map((curve) => curve.patients),
    );
    // The synthetic/real split would reveal 4 real patients: not shown.
    expect(figures.cohort.synthetic?.count ?? null).toBeNull();
  });

  it('shows a privacy role one group as the whole cohort’s figures show it, withholding breakdowns inside it', () => {
    const whole = summariseJourney(cohort, labels, true);
    const routine = sliceJourneyGroup(whole, 'persona', 'routine', labels, true);
    expect(routine.withheld).toEqual(['bands', 'product']);
    expect(routine.pdcByMonth.every((month) => month.bands.length === 0)).toBe(true);
    expect(routine.pdcByPersona).toEqual(whole.pdcByPersona.filter((group) => group.key === 'routine'));
    expect(routine.cohort).toEqual({
      patients: whole.persistence.byPersona.find((curve) => curve.key === 'routine')!.patients,
      synthetic: null,
      hasSynthetic: true,
    });
    expect(routine.pdcByProduct).toEqual([]);
  });

  it('handles an empty cohort', () => {
    const figures = summariseJourney([], labels, true);
    expect(figures.cohort.patients.count).toBe(0);
    expect(figures.pdcByMonth.every((month) => month.quartiles === null && month.adherentShare === null)).toBe(true);
    expect(figures.pdcByPersona).toEqual([]);
  });
});
