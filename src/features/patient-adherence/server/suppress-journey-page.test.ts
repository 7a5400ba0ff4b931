import { describe, expect, it } from 'vitest';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import { type JourneyPage, suppressJourneyPage } from './suppress-journey-page';

type Patient = { persona: string; product: string; monthlyPdc: (number | null)[]; persistsMonths: number };

const count = (value: number): ShownCount => ({ count: value, suppressed: false, display: String(value), reason: null });
const MONTHS = Array.from({ length: 12 }, (_, index) => index);

/** Unsuppressed journey figures of a list of patients (quartiles are placeholders: only counts matter here). */
function figuresOf(patients: readonly Patient[]): JourneyPage {
  const monthly = (members: readonly Patient[], month: number) =>
    members.map((patient) => patient.monthlyPdc[month]).filter((value): value is number => value !== null && value !== undefined);
  const share = (values: number[]) => (values.length === 0 ? null : values.filter((value) => value >= 0.8).length / values.length);
  const group = (key: string, members: readonly Patient[]) => ({
    key,
    label: key,
    patients: count(members.length),
    months: MONTHS.map((month) => ({
      month: month + 1,
      patients: count(monthly(members, month).length),
      quartiles: { q1: 0.5, median: 0.8, q3: 1 },
      adherentShare: share(monthly(members, month)),
    })),
  });
  const curve = (key: string, members: readonly Patient[]) => ({
    key,
    label: key,
    patients: count(members.length),
    points: Array.from({ length: 13 }, (_, month) => ({
      month,
      persisting: 1,
      atRisk: count(members.filter((patient) => patient.persistsMonths >= month).length),
    })),
  });
  const keys = (of: (patient: Patient) => string) => [...new Set(patients.map(of))].sort();
  const byPersona = keys((patient) => patient.persona).map((key) => [key, patients.filter((patient) => patient.persona === key)] as const);
  const byProduct = keys((patient) => patient.product).map((key) => [key, patients.filter((patient) => patient.product === key)] as const);
  return {
    cohort: { patients: count(patients.length), synthetic: count(0), hasSynthetic: false },
    pdcByMonth: MONTHS.map((month) => {
      const values = monthly(patients, month);
      const bands = [
        ['below-0.5', values.filter((value) => value < 0.5).length],
        ['0.5-0.8', values.filter((value) => value >= 0.5 && value < 0.8).length],
        ['at-least-0.8', values.filter((value) => value >= 0.8).length],
      ] as const;
      return {
        month: month + 1,
        patients: count(values.length),
        quartiles: { q1: 0.5, median: 0.8, q3: 1 },
        adherentShare: share(values),
        bands: bands.map(([key, value]) => ({ key, label: key, patients: count(value) })),
      };
    }),
    pdcByPersona: byPersona.map(([key, members]) => group(key, members)),
    pdcByProduct: byProduct.map(([key, members]) => group(key, members)),
    persistence: {
      overall: curve('all', patients),
      byPersona: byPersona.map(([key, members]) => curve(key, members)),
      byProduct: byProduct.map(([key, members]) => curve(key, members)),
    },
    withheld: [],
  };
}

const patientsOf = (total: number, values: Omit<Patient, 'monthlyPdc'> & { monthlyPdc?: (number | null)[] }): Patient[] =>
  Array.from({ length: total }, () => ({ monthlyPdc: MONTHS.map(() => 0.9), ...values }));

describe('suppressJourneyPage', () => {
  it('hides the 198 sceptics wherever 1657 − 1457 − 198 would give the 2 hidden patients (the probe’s page)', () => {
    const patients = [
      ...patientsOf(1457, { persona: 'routine', product: 'statin', persistsMonths: 12 }),
      ...patientsOf(198, { persona: 'sceptic', product: 'statin', persistsMonths: 6 }),
      ...patientsOf(2, { persona: 'forgetful', product: 'inhaler', persistsMonths: 2 }),
    ];
    const page = suppressJourneyPage(figuresOf(patients));
    const persona = (key: string) => page.pdcByPersona.find((group) => group.key === key)!;
    expect(page.cohort.patients.display).toBe('1657');
    expect(persona('forgetful').patients.display).toBe('<11');
    expect(persona('sceptic').patients.suppressed).toBe(true);
    MONTHS.forEach((month) => {
      // Month by month, the sceptics are hidden wherever the forgetful pair is, and their share and median with them.
      const cells = page.pdcByPersona.map((group) => group.months[month]!);
      const hidden = cells.filter((cell) => cell.patients.suppressed);
      expect(hidden.length === 0 || hidden.length >= 2 || page.pdcByMonth[month]!.patients.suppressed).toBe(true);
      for (const cell of hidden) expect(cell).toMatchObject({ quartiles: null, adherentShare: null });
    });
    // The product table over the same cohort: 2 inhaler patients beside 1655 on the statin.
    expect(page.pdcByProduct.map((group) => group.patients.display)).toEqual(['<11', 'suppressed']);
    // Persistence: the pair's numbers at risk and survival are hidden, and so is another group's beside them.
    expect(page.persistence.byPersona.filter((curve) => curve.points[1]!.atRisk.suppressed).length).toBeGreaterThanOrEqual(2);
    expect(page.persistence.byPersona.find((curve) => curve.key === 'forgetful')!.points.every((point) => point.persisting === null)).toBe(
      true,
    );
  });

  it('hides nothing when every group has 11 or more patients or none', () => {
    const patients = [
      ...patientsOf(40, { persona: 'routine', product: 'statin', persistsMonths: 12 }),
      ...patientsOf(30, { persona: 'sceptic', product: 'inhaler', persistsMonths: 12 }),
    ];
    const figures = figuresOf(patients);
    expect(suppressJourneyPage(figures)).toEqual(figures);
  });
});
