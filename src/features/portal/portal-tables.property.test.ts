import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditPage } from '@/engine/aggregation/page-suppression';
import { backtestDemand, type Fill, forecastDemand } from '@/engine/forecast';
import type { ForecastCountDto } from './demand-forecast-dto';
import {
  applyPortalFilters,
  buildPortalFigures,
  describePortalPage,
  type DoseSlot,
  missedReasonKeys,
  noPortalFilters,
  type PortalFill,
  type PortalFilters,
  type PortalInput,
  type PortalPatient,
  type PortalProduct,
  noSurveyReasons,
  surveyReasonKeys,
  type SurveyReasonCounts,
} from './portal-tables';
import { suppressDemandForecast } from './suppress-demand-forecast';

const period = { start: 20_000, end: 20_000 + 180 };
const products: PortalProduct[] = [
  { id: 'p1', name: 'Alpha', companyId: 'c1', companyName: 'Company One', atcCode: 'C09AA05' },
  { id: 'p2', name: 'Beta', companyId: 'c1', companyName: 'Company One', atcCode: 'C10AA01' },
  { id: 'p3', name: 'Gamma', companyId: 'c2', companyName: 'Company Two', atcCode: 'A10BA02' },
];
const regions = ['north', 'south', 'east'];

/** A random cohort: patients with demographics and fills of the three products around the period, dose slots, reply and survey reasons. */
const cohort = fc
  .record({
    patients: fc.array(
      fc.record({
        region: fc.option(fc.constantFrom(...regions), { nil: null }),
        ageBand: fc.constantFrom('18-39', '40-64', '65+', null),
        sex: fc.constantFrom('female', 'male', null),
        conditions: fc.subarray(['hypertension', 'type-2-diabetes', 'hyperlipidaemia']),
        fills: fc.array(
          fc.record({
            product: fc.constantFrom('p1', 'p2', 'p3'),
            offset: fc.integer({ min: -200, max: 179 }),
            daysSupply: fc.constantFrom(28, 30, 90),
          }),
          { minLength: 1, maxLength: 8 },
        ),
      }),
      { maxLength: 70 },
    ),
    doses: fc.array(
      fc.record({
        weekday: fc.integer({ min: 0, max: 6 }),
        hour: fc.integer({ min: 0, max: 23 }),
        confirmed: fc.nat(40),
        missed: fc.nat(15),
      }),
      { maxLength: 30 },
    ),
    reasons: fc.array(fc.record({ reason: fc.constantFrom(...missedReasonKeys), replies: fc.nat(30) }), { maxLength: 7 }),
    // Survey reasons: each reason's asked and giving patients (gave ≤ asked ≤ respondents).
    respondents: fc.nat(40),
    surveyCounts: fc.uniqueArray(fc.record({ reason: fc.constantFrom(...surveyReasonKeys), asked: fc.nat(40), gave: fc.nat(40) }), {
      selector: (row) => row.reason,
      maxLength: surveyReasonKeys.length,
    }),
  })
  .map(({ patients: drawn, doses, reasons, respondents, surveyCounts }) => {
    const patients: PortalPatient[] = drawn.map((patient, index) => ({ id: `patient-${index}`, ...patient }));
    const fills: PortalFill[] = drawn.flatMap((patient, index) =>
      patient.fills.map((fill) => ({
        patientId: `patient-${index}`,
        productId: fill.product,
        day: period.start + fill.offset,
        daysSupply: fill.daysSupply,
      })),
    );
    const unique = new Map<string, DoseSlot>();
    for (const dose of doses) unique.set(`${dose.weekday}:${dose.hour}`, dose);
    const surveyReasons: SurveyReasonCounts = {
      respondents: Math.max(respondents, ...surveyCounts.map((row) => row.asked)),
      reasons: surveyCounts.map((row) => ({ reason: row.reason, asked: row.asked, gave: Math.min(row.gave, row.asked) })),
    };
    return { patients, fills, doses: [...unique.values()], reasons, surveyReasons };
  });

const filterCombinations: PortalFilters[] = [null, 'p1', 'p2', 'p3'].flatMap((productId) =>
  [null, 'c1', 'c2'].flatMap((companyId) => [null, ...regions, 'not-recorded'].map((region) => ({ productId, companyId, region }))),
);

describe('portal figures: suppression on every filter combination', () => {
  it('never shows a count of 1–10, shows shares only over shown denominators ≥ 11, and leaves no hidden cell derivable', () => {
    fc.assert(
      fc.property(cohort, fc.constantFrom<PortalInput['audience']>('manufacturer', 'government'), (data, audience) => {
        for (const filters of filterCombinations) {
          const filtered = applyPortalFilters({ audience, period, products, patients: data.patients, fills: data.fills }, filters);
          const { figures, page, hidden } = describePortalPage({
            ...filtered,
            doses: data.doses,
            reasons: data.reasons,
            surveyReasons: data.surveyReasons,
          });
          for (const table of figures.tables)
            for (const row of table.rows)
              for (const value of row.values) {
                if (value.kind === 'count') expect(value.value === 0 || value.value >= 11).toBe(true);
                if (value.kind === 'hidden') expect(['<11', 'suppressed']).toContain(value.label);
              }
          // Survey reasons: a share only beside a shown count of at least 11 patients asked.
          for (const row of figures.tables.find((table) => table.id === 'survey-reasons')!.rows) {
            const [, asked, share] = row.values;
            if (share?.kind === 'share') expect(asked?.kind === 'count' && asked.value >= 11).toBe(true);
          }
          // The reader's arithmetic over every relation of the page: no relation gives a hidden cell away, none is narrowed.
          const audit = auditPage(page, hidden);
          expect(audit.singleHidden).toEqual([]);
          expect(audit.narrow).toEqual([]);
          for (const cell of page.cells)
            if (cell.count > 0 && cell.count < 11 && cell.display !== 'never') expect(hidden.has(cell.id)).toBe(true);
        }
      }),
      { numRuns: 20 },
    );
    // 20 cohorts × 2 audiences × 60 filter combinations = 2,400 pages: slow on a busy machine.
  }, 180_000);

  it('demand forecast section: no count of 1–10 shown or exported, no error resting on a hidden count, on every product filter', () => {
    // The forecast applies the product and company filters (not the region: it covers every region, and says so).
    const productFilters = filterCombinations.filter((filters) => filters.region === null);
    const asOf = period.end;
    const isShownCount = (value: ForecastCountDto) => value.kind === 'hidden' || value.value === 0 || value.value >= 11;
    fc.assert(
      fc.property(cohort, (data) => {
        for (const filters of productFilters) {
          const { fills } = applyPortalFilters(
            { audience: 'government', period, products, patients: data.patients, fills: data.fills },
            filters,
          );
          // One history per patient and product, as the forecast's cells are made (decision 040).
          const histories = new Map<string, Fill[]>();
          for (const fill of fills) {
            const key = `${fill.patientId}|${fill.productId}`;
            histories.set(key, [...(histories.get(key) ?? []), { day: fill.day, daysSupply: fill.daysSupply, units: fill.daysSupply }]);
          }
          const cohortHistories = [...histories.values()];
          const backtest = backtestDemand({ histories: cohortHistories, asOf });
          const forecast = forecastDemand({ histories: cohortHistories, asOf });
          const section = suppressDemandForecast({ currentTherapies: forecast.currentPatients, backtest });
          expect(isShownCount(section.currentTherapies)).toBe(true);
          const months = section.backtest!.months;
          months.forEach((month, index) => {
            expect(isShownCount(month.actual) && isShownCount(month.naive)).toBe(true);
            // A count the reader sees is the true one; a hidden one is labelled as the rest of the portal labels it.
            for (const [shown, truth] of [
              [month.actual, backtest.months[index]!.actual],
              [month.naive, backtest.months[index]!.naive],
            ] as const)
              if (shown.kind === 'count') expect(shown.value).toBe(truth);
              else expect(['<11', 'suppressed']).toContain(shown.label);
          });
          // Errors and the months inside the interval would give a hidden actual (or naive count) away.
          const actualHidden = months.some((month) => month.actual.kind === 'hidden');
          const naiveHidden = months.some((month) => month.naive.kind === 'hidden');
          expect(section.backtest!.forecastError === null).toBe(actualHidden);
          expect(section.backtest!.withinInterval === null).toBe(actualHidden);
          expect(section.backtest!.naiveError === null).toBe(actualHidden || naiveHidden);
          const audit = auditPage(section.page, section.hidden);
          expect(audit.singleHidden).toEqual([]);
          expect(audit.narrow).toEqual([]);
          for (const cell of section.page.cells) if (cell.count > 0 && cell.count < 11) expect(section.hidden.has(cell.id)).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('narrows to the filtered products and region', () => {
    const patients: PortalPatient[] = Array.from({ length: 30 }, (_, index) => ({
      id: `patient-${index}`,
      region: index < 15 ? 'north' : 'south',
      ageBand: '40-64',
      sex: 'female',
      conditions: [],
    }));
    const fills: PortalFill[] = patients.flatMap((patient, index) => [
      { patientId: patient.id, productId: index % 2 === 0 ? 'p1' : 'p3', day: period.start + 10, daysSupply: 30 },
      { patientId: patient.id, productId: index % 2 === 0 ? 'p1' : 'p3', day: period.start + 40, daysSupply: 30 },
    ]);
    const all = buildPortalFigures({
      audience: 'manufacturer',
      period,
      products,
      patients,
      fills,
      doses: [],
      reasons: [],
      surveyReasons: noSurveyReasons,
    });
    const cohortRow = (figures: typeof all) =>
      figures.tables.find((table) => table.id === 'pdc-distribution')!.rows.find((row) => row.key === 'all')!;
    expect(cohortRow(all).values[0]).toEqual({ kind: 'count', value: 30 });
    const companyOne = applyPortalFilters(
      { audience: 'manufacturer', period, products, patients, fills },
      { ...noPortalFilters, companyId: 'c1' },
    );
    expect(cohortRow(buildPortalFigures({ ...companyOne, doses: [], reasons: [], surveyReasons: noSurveyReasons })).values[0]).toEqual({
      kind: 'count',
      value: 15,
    });
    const north = applyPortalFilters(
      { audience: 'manufacturer', period, products, patients, fills },
      { ...noPortalFilters, region: 'north', companyId: 'c1' },
    );
    // 8 patients: shown as "<11".
    expect(cohortRow(buildPortalFigures({ ...north, doses: [], reasons: [], surveyReasons: noSurveyReasons })).values[0]).toEqual({
      kind: 'hidden',
      label: '<11',
    });
  });
});
