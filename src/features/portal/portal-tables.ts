/**
 * The portal's figures as tables (issue 15 items 1–3): pure functions from a filtered cohort's fills, dose
 * slots and missed-dose reasons to every table the page and its CSV exports show, through ONE whole-page
 * small-cell suppression (src/engine/aggregation/page-suppression.ts). The page is described as cells (each
 * group once, under one id, however many tables show it) and the sums and orderings a reader can see
 * between them; every viewer of the portal gets the suppression, because it is a portal of aggregates.
 * Browser-safe and pure, so the property test can run every filter combination without a database.
 */
import { civilFromDayNumber, dayNumberFromCivil } from '@/engine/adherence/day-number';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { PQA_ADHERENT_THRESHOLD } from '@/engine/adherence/pqa-pdc';
import { runGapModel, POOLED_CARRY_OVER } from '@/engine/adherence/gap-model';
import { computeKaplanMeierWithIntervals, type SurvivalSubject } from '@/engine/aggregation/kaplan-meier';
import {
  type HiddenReason,
  type OrderRelation,
  type PageCell,
  type PageDescription,
  type SumRelation,
  suppressPage,
} from '@/engine/aggregation/page-suppression';
import { periodPdc, treatmentEpisodes } from '@/engine/aggregation/patient-summary';
import { PERMISSIBLE_GAP_DAYS, type Period } from '@/engine/aggregation/reporting-period';
import { SMALL_CELL_THRESHOLD, SUPPRESSED_LABEL } from '@/engine/aggregation/small-cell-suppression';
import { conditionLabels } from '@/engine/simulation/conditions';

export type PortalAudience = 'manufacturer' | 'government';

export type PortalProduct = { id: string; name: string; companyId: string | null; companyName: string | null; atcCode: string | null };
export type PortalPatient = {
  id: string;
  region: string | null;
  ageBand: string | null;
  sex: string | null;
  conditions: readonly string[];
};
/** One dispensing: its day number and days of supply. */
export type PortalFill = { patientId: string; productId: string; day: number; daysSupply: number };
/** Doses scheduled in one hour of one weekday (0 = Monday), in the patient's own time zone. */
export type DoseSlot = { weekday: number; hour: number; confirmed: number; missed: number };
export const missedReasonKeys = ['forgot', 'side-effects', 'ran-out', 'cost', 'felt-fine', 'other', 'none'] as const;
export type MissedReasonKey = (typeof missedReasonKeys)[number];
export type ReasonCount = { reason: MissedReasonKey; replies: number };

/**
 * Reasons for missed doses as patients give them in the adherence-barriers survey (src/engine/surveys/definitions.ts):
 * a barrier question answered "often" or "sometimes" (each asks how often that reason made them miss, skip or delay
 * doses), or the reason named as the main one for stopping for a week or more (`stop-reason`). `missed-days` and
 * `skipped-on-purpose` say how often, not why, so they are not reasons. A reason's patients are those asked one of its
 * questions (the survey is adaptive: most people answer 3 to 5 questions).
 */
export const surveyReasons = [
  { key: 'forgetting', label: 'Forgetting', gives: { forgetting: ['often', 'sometimes'] } },
  { key: 'routine', label: 'A change of routine or a busy life', gives: { routine: ['often', 'sometimes'], 'stop-reason': ['life-busy'] } },
  {
    key: 'concerns',
    label: 'Worries about side effects or harm',
    gives: { concerns: ['often', 'sometimes'], 'stop-reason': ['worries'] },
  },
  {
    key: 'need',
    label: 'Doubts about needing the medicine',
    gives: { need: ['often', 'sometimes'], 'stop-reason': ['unsure-needed'] },
  },
  { key: 'cost', label: 'Cost', gives: { cost: ['often', 'sometimes'], 'stop-reason': ['cost'] } },
  { key: 'running-out', label: 'Running out', gives: { 'running-out': ['often', 'sometimes'] } },
  { key: 'understanding', label: 'Being unsure how to take it', gives: { understanding: ['often', 'sometimes'] } },
] as const satisfies readonly { key: string; label: string; gives: Readonly<Record<string, readonly string[]>> }[];
export type SurveyReasonKey = (typeof surveyReasons)[number]['key'];
export const surveyReasonKeys: readonly SurveyReasonKey[] = surveyReasons.map((reason) => reason.key);
/** Patients asked about one reason in their latest answers of the period, and those whose answer gave it. */
export type SurveyReasonCount = { reason: SurveyReasonKey; asked: number; gave: number };
/** The scope's barrier-survey answers in the period: patients with a completed survey, and the counts per reason. */
export type SurveyReasonCounts = { respondents: number; reasons: readonly SurveyReasonCount[] };
export const noSurveyReasons: SurveyReasonCounts = { respondents: 0, reasons: [] };

export type PortalFilters = { productId: string | null; companyId: string | null; region: string | null };
export const noPortalFilters: PortalFilters = { productId: null, companyId: null, region: null };

export type PortalValue =
  | { kind: 'count'; value: number }
  /** A hidden count: "<11" (1–10) or "suppressed" (hidden so that a small group cannot be worked out). */
  | { kind: 'hidden'; label: string }
  | { kind: 'share'; value: number }
  | { kind: 'number'; value: number }
  /** A figure not shown, and why in a word ("n < 11", "hidden"). */
  | { kind: 'none'; label: string }
  | { kind: 'text'; value: string };

export type PortalTable = {
  id: string;
  title: string;
  /** The population and unit the counts are of (the period is stated once per page and in each CSV). */
  population: string;
  columns: string[];
  rows: { key: string; label: string; values: PortalValue[] }[];
};

export type WorstWindow = { weekday: number; hour: number; missed: number; scheduled: number; share: number };

export type PortalFigures = {
  tables: PortalTable[];
  /** The hour × weekday with the highest share of missed doses among windows whose counts are shown and ≥ 11. */
  worstWindow: WorstWindow | null;
  /** Cells still narrower than required after suppression (then every count is hidden). */
  fullyHidden: boolean;
};

export type PortalInput = {
  audience: PortalAudience;
  period: Period;
  products: readonly PortalProduct[];
  patients: readonly PortalPatient[];
  fills: readonly PortalFill[];
  doses: readonly DoseSlot[];
  reasons: readonly ReasonCount[];
  surveyReasons: SurveyReasonCounts;
};

export const NOT_RECORDED = 'not-recorded';
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const pdcBins = [
  { key: '0-20', label: 'PDC below 0.2', from: 0, to: 0.2 },
  { key: '20-40', label: 'PDC 0.2 to below 0.4', from: 0.2, to: 0.4 },
  { key: '40-60', label: 'PDC 0.4 to below 0.6', from: 0.4, to: 0.6 },
  { key: '60-80', label: 'PDC 0.6 to below 0.8', from: 0.6, to: 0.8 },
  { key: '80-100', label: 'PDC 0.8 or more (adherent)', from: 0.8, to: Infinity },
] as const;
export const gapBins = [
  { key: 'on-time', label: 'On time or early (no day without supply)', from: -Infinity, to: 0 },
  { key: '1-7', label: '1 to 7 days without supply', from: 1, to: 7 },
  { key: '8-30', label: '8 to 30 days without supply', from: 8, to: 30 },
  { key: '31-60', label: '31 to 60 days without supply', from: 31, to: 60 },
  { key: 'over-60', label: 'More than 60 days without supply', from: 61, to: Infinity },
] as const;
export const persistenceDays = [0, 30, 60, 90, 180, 270, 365] as const;
const reasonLabels: Record<MissedReasonKey, string> = {
  forgot: 'Forgot',
  'side-effects': 'Side effects',
  'ran-out': 'Ran out of medicine',
  cost: 'Cost',
  'felt-fine': 'Felt fine',
  other: 'Another reason',
  none: 'No reason given',
};

/** The filters applied to the scope's data: one product, one company's products, one region. */
export function applyPortalFilters(
  input: Omit<PortalInput, 'doses' | 'reasons' | 'surveyReasons'>,
  filters: PortalFilters,
): Omit<PortalInput, 'doses' | 'reasons' | 'surveyReasons'> {
  const products = input.products.filter(
    (product) =>
      (filters.productId === null || product.id === filters.productId) &&
      (filters.companyId === null || product.companyId === filters.companyId),
  );
  const productIds = new Set(products.map((product) => product.id));
  const patients = input.patients.filter((patient) => filters.region === null || (patient.region ?? NOT_RECORDED) === filters.region);
  const patientIds = new Set(patients.map((patient) => patient.id));
  const fills = input.fills.filter((fill) => productIds.has(fill.productId) && patientIds.has(fill.patientId));
  return { ...input, products, patients, fills };
}

export type Month = { key: string; label: string; start: number; end: number };

/** Calendar months of the period, each clipped to it. */
export function periodMonths(period: Period): Month[] {
  const months: Month[] = [];
  let { year, month } = civilFromDayNumber(period.start);
  for (;;) {
    const start = dayNumberFromCivil(year, month, 1);
    if (start >= period.end) break;
    const nextYear = month === 12 ? year + 1 : year;
    const nextMonth = month === 12 ? 1 : month + 1;
    const end = dayNumberFromCivil(nextYear, nextMonth, 1);
    const key = `${year}-${String(month).padStart(2, '0')}`;
    const label = new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    months.push({ key, label, start: Math.max(start, period.start), end: Math.min(end, period.end) });
    year = nextYear;
    month = nextMonth;
  }
  return months;
}

type Spec =
  | { cell: string }
  | { share: [numerator: string, denominator: string] }
  | { figure: number | null; rests: readonly string[]; kind: 'share' | 'number' }
  | { text: string };
type TableSpec = Omit<PortalTable, 'rows'> & { rows: { key: string; label: string; specs: Spec[] }[] };

class PageBuilder {
  cells: PageCell[] = [];
  counts = new Map<string, number>();
  sums: SumRelation[] = [];
  orders: OrderRelation[] = [];
  add(id: string, count: number, options: Omit<PageCell, 'id' | 'count'> = {}) {
    if (this.counts.has(id)) return;
    this.cells.push({ id, count, ...options });
    this.counts.set(id, count);
  }
  /** A group with a share at PDC ≥ 0.8 behind it: its size, adherent (a blank figure) and non-adherent (never shown) counts. */
  addGroup(id: string, size: number, adherent: number) {
    this.add(id, size);
    this.add(`${id}:adherent`, adherent, { display: 'unlabelled', shownWith: [id] });
    this.add(`${id}:non-adherent`, size - adherent, { display: 'never' });
    this.sums.push({ total: id, parts: [`${id}:adherent`, `${id}:non-adherent`] });
  }
}

export function buildPortalFigures(input: PortalInput): PortalFigures {
  return describePortalPage(input).figures;
}

/** The figures, and the page description and hidden cells behind them (for the suppression audit in tests). */
export function describePortalPage(input: PortalInput): {
  figures: PortalFigures;
  page: PageDescription;
  hidden: ReadonlyMap<string, HiddenReason>;
} {
  return describePortalPageFromTotals({ ...input, totals: portalTotalsOf(input) });
}

/** What one patient adds to the page: month indices (of periodMonths), persistence subjects, refill gaps, cohort membership. */
export type PatientSummary = {
  onMonths: number[];
  adherentMonths: number[];
  /** Months with a treatment start, among onMonths. */
  startMonths: number[];
  /** Months with a discontinuation, among onMonths. */
  stopMonths: number[];
  subjects: SurvivalSubject[];
  /** Refills in the period per gap bin (gapBins). */
  gapCounts: number[];
  /** In the period's cohort (a fill in the period): adherent at PDC ≥ 0.8, PDC bin index (−1: none), products. */
  member: { adherent: boolean; pdcBin: number; productIds: string[] } | null;
};

/** Events of one patient's fills, sorted by day then product (the order every computation below assumes). */
export function patientEvents(fills: readonly Pick<PortalFill, 'productId' | 'day' | 'daysSupply'>[]): MedicationEvent[] {
  return fills
    .map((fill) => ({ day: fill.day, duration: fill.daysSupply, dose: 1, medicationClass: fill.productId }))
    .sort((left, right) => left.day - right.day || left.medicationClass.localeCompare(right.medicationClass));
}

/**
 * One patient's contribution through the engine (episodes, PQA PDC, gap model): the unit both the page computed
 * per request and the per-patient pre-aggregate (portal_patient_summaries, docs/decisions/050) are made of.
 * `events` are the patient's fills of the products shown, from the look-back start, before period.end, sorted.
 */
export function summarisePatient(events: readonly MedicationEvent[], period: Period, months: readonly Month[]): PatientSummary | null {
  if (events.length === 0) return null;
  const monthOf = (day: number) => months.findIndex((month) => day >= month.start && day < month.end);
  const onMonths = new Set<number>();
  const startMonths = new Set<number>();
  const stopMonths = new Set<number>();
  const subjects: SurvivalSubject[] = [];
  const gapCounts = gapBins.map(() => 0);
  for (const productId of new Set(events.map((event) => event.medicationClass))) {
    const own = events.filter((event) => event.medicationClass === productId);
    // Treatment episodes: a gap of more than 60 days ends one (the engine's definition).
    const episodes = treatmentEpisodes(own, period);
    let followed = false;
    for (const episode of episodes) {
      // Discontinued: no new supply within the permissible gap after the episode ends, seen before the data ends.
      const discontinued = episode.end + PERMISSIBLE_GAP_DAYS <= period.end;
      months.forEach((month, index) => {
        if (episode.start < month.end && episode.end > month.start) onMonths.add(index);
      });
      const startMonth = monthOf(episode.start);
      if (startMonth >= 0) {
        startMonths.add(startMonth);
        // Persistence: each patient's first episode of a product that starts in the period, followed to discontinuation or the data's end.
        if (!followed) {
          followed = true;
          subjects.push(
            discontinued ? { time: episode.end - episode.start, event: true } : { time: period.end - episode.start, event: false },
          );
        }
      }
      const stopMonth = discontinued ? monthOf(episode.end - 1) : -1;
      if (stopMonth >= 0) stopMonths.add(stopMonth);
    }
    // Refill gaps: days without supply before each next fill of the same product (early refills carry over).
    const model = runGapModel(own, 0, own.length, period.end, POOLED_CARRY_OVER);
    own.forEach((event, index) => {
      const next = own[index + 1];
      if (next === undefined || next.day < period.start || next.day >= period.end) return;
      const gap = Math.round(model.gaps[index]!);
      const bin = gapBins.findIndex((candidate) => gap >= candidate.from && gap <= candidate.to);
      gapCounts[bin < 0 ? 0 : bin]! += 1;
    });
  }
  const coverage = pqaCoverage(events);
  const firstDay = events[0]!.day;
  const adherentMonths: number[] = [];
  const sortedOn = [...onMonths].sort((left, right) => left - right);
  for (const index of sortedOn) {
    const month = months[index]!;
    const start = Math.max(month.start, firstDay);
    if (start < month.end && coveredDaysIn(coverage, start, month.end) / (month.end - start) >= PQA_ADHERENT_THRESHOLD)
      adherentMonths.push(index);
  }
  // The period's cohort: patients with a fill in the period, adherent at PDC ≥ 0.8 over it (PQA: from the first fill).
  let member: PatientSummary['member'] = null;
  if (events.some((event) => event.day >= period.start)) {
    const pdc = periodPdc(events, period);
    if (pdc !== null)
      member = {
        adherent: pdc.value >= PQA_ADHERENT_THRESHOLD,
        pdcBin: pdcBins.findIndex((bin) => pdc.value >= bin.from && pdc.value < bin.to),
        productIds: [...new Set(events.map((event) => event.medicationClass))],
      };
  }
  return {
    onMonths: sortedOn,
    adherentMonths,
    // A start or a stop is counted in a month the patient was on therapy in (so neither can exceed it).
    startMonths: [...startMonths].filter((index) => onMonths.has(index)).sort((left, right) => left - right),
    stopMonths: [...stopMonths].filter((index) => onMonths.has(index)).sort((left, right) => left - right),
    subjects,
    gapCounts,
    member,
  };
}

export type GroupCount = { size: number; adherent: number };
/** Breakdown dimensions: the first three add up to the cohort; the others overlap (a patient in several rows). */
export const portalDimensionIds = ['region', 'age-band', 'sex', 'product', 'condition', 'product-class', 'company'] as const;
export type PortalDimensionId = (typeof portalDimensionIds)[number];

/** Every count the page shows, before suppression: sums over patients (in SQL from the pre-aggregate, or here). */
export type PortalTotals = {
  months: { onTherapy: number; adherent: number; newStarts: number; discontinuations: number }[];
  subjects: SurvivalSubject[];
  gapCounts: number[];
  cohort: GroupCount;
  pdcBinCounts: number[];
  groups: Record<PortalDimensionId, Map<string, GroupCount>>;
};

export function emptyPortalTotals(monthCount: number): PortalTotals {
  return {
    months: Array.from({ length: monthCount }, () => ({ onTherapy: 0, adherent: 0, newStarts: 0, discontinuations: 0 })),
    subjects: [],
    gapCounts: gapBins.map(() => 0),
    cohort: { size: 0, adherent: 0 },
    pdcBinCounts: pdcBins.map(() => 0),
    groups: Object.fromEntries(portalDimensionIds.map((id) => [id, new Map()])) as PortalTotals['groups'],
  };
}

/** The keys a cohort member counts under in one dimension (the SQL of the pre-aggregate read follows the same rules). */
export function dimensionKeys(
  dimension: PortalDimensionId,
  patient: PortalPatient,
  productIds: readonly string[],
  productById: ReadonlyMap<string, PortalProduct>,
): string[] {
  switch (dimension) {
    case 'region':
      return [patient.region ?? NOT_RECORDED];
    case 'age-band':
      return [patient.ageBand ?? NOT_RECORDED];
    case 'sex':
      return [patient.sex ?? NOT_RECORDED];
    case 'product':
      return [...productIds];
    case 'condition':
      return patient.conditions.length === 0 ? [NOT_RECORDED] : [...new Set(patient.conditions)];
    case 'product-class':
      return [...new Set(productIds.map((id) => productById.get(id)?.atcCode?.slice(0, 4) ?? NOT_RECORDED))];
    case 'company':
      return [...new Set(productIds.map((id) => productById.get(id)?.companyId ?? NOT_RECORDED))];
  }
}

export function addGroupCount(groups: Map<string, GroupCount>, key: string, size: number, adherent: number): void {
  const seen = groups.get(key);
  if (seen === undefined) groups.set(key, { size, adherent });
  else {
    seen.size += size;
    seen.adherent += adherent;
  }
}

/** Adds one patient's summary to the totals. */
export function addPatientSummary(
  totals: PortalTotals,
  summary: PatientSummary,
  patient: PortalPatient,
  productById: ReadonlyMap<string, PortalProduct>,
): void {
  for (const index of summary.onMonths) totals.months[index]!.onTherapy += 1;
  for (const index of summary.adherentMonths) totals.months[index]!.adherent += 1;
  for (const index of summary.startMonths) totals.months[index]!.newStarts += 1;
  for (const index of summary.stopMonths) totals.months[index]!.discontinuations += 1;
  totals.subjects.push(...summary.subjects);
  summary.gapCounts.forEach((count, index) => (totals.gapCounts[index]! += count));
  const member = summary.member;
  if (member === null) return;
  const adherent = member.adherent ? 1 : 0;
  totals.cohort.size += 1;
  totals.cohort.adherent += adherent;
  if (member.pdcBin >= 0) totals.pdcBinCounts[member.pdcBin]! += 1;
  for (const dimension of portalDimensionIds)
    for (const key of dimensionKeys(dimension, patient, member.productIds, productById))
      addGroupCount(totals.groups[dimension], key, 1, adherent);
}

/** Adds `other` into `totals` (the pre-aggregate's sums and the patients computed on read). */
export function mergePortalTotals(totals: PortalTotals, other: PortalTotals): PortalTotals {
  other.months.forEach((month, index) => {
    const into = totals.months[index]!;
    into.onTherapy += month.onTherapy;
    into.adherent += month.adherent;
    into.newStarts += month.newStarts;
    into.discontinuations += month.discontinuations;
  });
  totals.subjects.push(...other.subjects);
  other.gapCounts.forEach((count, index) => (totals.gapCounts[index]! += count));
  totals.cohort.size += other.cohort.size;
  totals.cohort.adherent += other.cohort.adherent;
  other.pdcBinCounts.forEach((count, index) => (totals.pdcBinCounts[index]! += count));
  for (const dimension of portalDimensionIds)
    for (const [key, count] of other.groups[dimension]) addGroupCount(totals.groups[dimension], key, count.size, count.adherent);
  return totals;
}

/** The fills of each patient of the (filtered) input, as sorted engine events; fills on or after period.end are left out. */
export function eventsByPatient(input: Pick<PortalInput, 'period' | 'products' | 'fills'>): Map<string, MedicationEvent[]> {
  const productIds = new Set(input.products.map((product) => product.id));
  const fillsByPatient = new Map<string, PortalFill[]>();
  for (const fill of input.fills) {
    if (!productIds.has(fill.productId) || fill.day >= input.period.end) continue;
    const own = fillsByPatient.get(fill.patientId);
    if (own === undefined) fillsByPatient.set(fill.patientId, [fill]);
    else own.push(fill);
  }
  return new Map([...fillsByPatient].map(([patientId, fills]) => [patientId, patientEvents(fills)]));
}

/** The totals computed per request through the engine, patient by patient (the reference the pre-aggregate equals). */
export function portalTotalsOf(input: Pick<PortalInput, 'period' | 'products' | 'patients' | 'fills'>): PortalTotals {
  const months = periodMonths(input.period);
  const totals = emptyPortalTotals(months.length);
  const productById = new Map(input.products.map((product) => [product.id, product]));
  const events = eventsByPatient(input);
  for (const patient of input.patients) {
    const own = events.get(patient.id);
    if (own === undefined) continue;
    const summary = summarisePatient(own, input.period, months);
    if (summary !== null) addPatientSummary(totals, summary, patient, productById);
  }
  return totals;
}

/** The page from its totals: every table, through one whole-page suppression. */
export function describePortalPageFromTotals(input: {
  audience: PortalAudience;
  period: Period;
  products: readonly PortalProduct[];
  totals: PortalTotals;
  doses: readonly DoseSlot[];
  reasons: readonly ReasonCount[];
  surveyReasons: SurveyReasonCounts;
}): {
  figures: PortalFigures;
  page: PageDescription;
  hidden: ReadonlyMap<string, HiddenReason>;
} {
  const { period, audience, totals } = input;
  const page = new PageBuilder();
  const tables: TableSpec[] = [];
  const productById = new Map(input.products.map((product) => [product.id, product]));
  const months = periodMonths(period);
  const onTherapy = totals.months.map((month) => month.onTherapy);
  const adherentInMonth = totals.months.map((month) => month.adherent);
  const newStarts = totals.months.map((month) => month.newStarts);
  const discontinuations = totals.months.map((month) => month.discontinuations);
  const subjects = totals.subjects;
  const gapCounts = totals.gapCounts;

  // Patients on therapy, starts and stops by month.
  months.forEach((month, index) => {
    page.addGroup(`on:${month.key}`, onTherapy[index]!, adherentInMonth[index]!);
    page.add(`new:${month.key}`, newStarts[index]!);
    page.add(`stop:${month.key}`, discontinuations[index]!);
    page.orders.push(
      { smaller: `new:${month.key}`, larger: `on:${month.key}` },
      { smaller: `stop:${month.key}`, larger: `on:${month.key}` },
    );
  });
  tables.push({
    id: 'monthly',
    title: 'Patients on therapy, new starts and discontinuations by month',
    population:
      'Patients with supply of the products shown in each month; a new start is a treatment episode beginning in the month (first fill, or the first after more than 60 days without supply); a discontinuation is an episode whose supply ran out in the month with no refill within 60 days. Share adherent: PDC ≥ 0.8 over the month.',
    columns: ['Month', 'Patients on therapy', 'New starts', 'Discontinuations', 'Share with PDC ≥ 0.8'],
    rows: months.map((month) => ({
      key: month.key,
      label: month.label,
      specs: [
        { cell: `on:${month.key}` },
        { cell: `new:${month.key}` },
        { cell: `stop:${month.key}` },
        { share: [`on:${month.key}:adherent`, `on:${month.key}`] },
      ],
    })),
  });

  // PDC distribution over the period: the cohort, split into bins; the top bin is the adherent group.
  page.addGroup('cohort', totals.cohort.size, totals.cohort.adherent);
  const binCounts = totals.pdcBinCounts;
  pdcBins.forEach((bin, index) => {
    if (index < pdcBins.length - 1) page.add(`pdc:${bin.key}`, binCounts[index]!);
  });
  page.sums.push({ total: 'cohort:non-adherent', parts: pdcBins.slice(0, -1).map((bin) => `pdc:${bin.key}`) });
  // The top bin is shown as a count here, so the adherent group is no longer only a blank figure.
  page.cells = page.cells.map((cell) => (cell.id === 'cohort:adherent' ? { id: cell.id, count: cell.count } : cell));
  const binCell = (index: number) => (index === pdcBins.length - 1 ? 'cohort:adherent' : `pdc:${pdcBins[index]!.key}`);
  tables.push({
    id: 'pdc-distribution',
    title: 'Refill-based PDC over the period',
    population:
      'Patients with a fill of the products shown in the period; proportion of days covered (PQA) from the period’s start, or from the first fill when treatment began inside it.',
    columns: ['PDC', 'Patients', 'Share of patients'],
    rows: [
      ...pdcBins.map((bin, index) => ({
        key: bin.key,
        label: bin.label,
        specs: [{ cell: binCell(index) }, { share: [binCell(index), 'cohort'] }] as Spec[],
      })),
      { key: 'all', label: 'All patients with a fill in the period', specs: [{ cell: 'cohort' }, { text: '' }] },
    ],
  });

  // Persistence (Kaplan–Meier, 60-day permissible gap) of treatment starts in the period.
  const times = persistenceDays.filter((day) => day <= period.end - period.start);
  const curve = computeKaplanMeierWithIntervals(subjects, times);
  curve.forEach((point, index) => {
    page.add(`km:${point.time}`, point.atRisk);
    if (index > 0) page.orders.push({ smaller: `km:${point.time}`, larger: `km:${curve[index - 1]!.time}` });
  });
  const survivalRests = (time: number) => [`km:${time}`];
  tables.push({
    id: 'persistence',
    title: 'Persistence after a treatment start (Kaplan–Meier, 60-day permissible gap)',
    population:
      'Each patient’s first treatment episode of each product shown that starts in the period, followed until no refill within 60 days of the supply running out (discontinuation) or the end of the data (censored). Limits: 95% pointwise, log(−log) Greenwood.',
    columns: ['Days since start', 'Still followed', 'Persisting', 'Lower 95% limit', 'Upper 95% limit'],
    rows: curve.map((point) => ({
      key: String(point.time),
      label: `Day ${point.time}`,
      specs: [
        { cell: `km:${point.time}` },
        { figure: point.survival, rests: survivalRests(point.time), kind: 'share' },
        { figure: point.lower, rests: survivalRests(point.time), kind: 'share' },
        { figure: point.upper, rests: survivalRests(point.time), kind: 'share' },
      ],
    })),
  });

  // Refill gaps.
  gapBins.forEach((bin, index) => page.add(`gap:${bin.key}`, gapCounts[index]!));
  const refills = gapCounts.reduce((sum, count) => sum + count, 0);
  page.add('gap:all', refills);
  page.add('gap:late', refills - gapCounts[0]!);
  page.sums.push(
    { total: 'gap:all', parts: gapBins.map((bin) => `gap:${bin.key}`) },
    { total: 'gap:late', parts: gapBins.slice(1).map((bin) => `gap:${bin.key}`) },
    { total: 'gap:all', parts: ['gap:on-time', 'gap:late'] },
  );
  tables.push({
    id: 'refill-gaps',
    title: 'Days without supply before a refill',
    population:
      'Refills in the period of the products shown (a fill following an earlier fill of the same product); early refills carry their supply over. Late: at least one day without supply.',
    columns: ['Gap before the refill', 'Refills', 'Share of refills'],
    rows: [
      ...gapBins.map((bin) => ({
        key: bin.key,
        label: bin.label,
        specs: [{ cell: `gap:${bin.key}` }, { share: [`gap:${bin.key}`, 'gap:all'] }] as Spec[],
      })),
      { key: 'late', label: 'Late refills (any day without supply)', specs: [{ cell: 'gap:late' }, { share: ['gap:late', 'gap:all'] }] },
      { key: 'all', label: 'All refills', specs: [{ cell: 'gap:all' }, { text: '' }] },
    ],
  });

  // Dose timing: hour × weekday of confirmed and of missed doses.
  const slot = new Map(input.doses.map((dose) => [`${dose.weekday}:${dose.hour}`, dose]));
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
  for (const status of ['confirmed', 'missed'] as const) {
    weekdayNames.forEach((_, weekday) =>
      hours.forEach((hour) => page.add(`dose:${status}:${weekday}:${hour}`, slot.get(`${weekday}:${hour}`)?.[status] ?? 0)),
    );
    tables.push({
      id: `doses-${status}`,
      title: `${status === 'confirmed' ? 'Confirmed' : 'Missed'} doses by weekday and hour`,
      population: `Doses of the products shown scheduled in the period that were ${status === 'confirmed' ? 'confirmed taken' : 'missed or skipped'}, by the hour they were scheduled in the patient’s own time zone.`,
      columns: ['Weekday', ...hours.map((hour) => `${String(hour).padStart(2, '0')}:00`)],
      rows: weekdayNames.map((name, weekday) => ({
        key: String(weekday),
        label: name,
        specs: hours.map((hour) => ({ cell: `dose:${status}:${weekday}:${hour}` })),
      })),
    });
  }

  // Reasons for missed doses, from the patients' replies.
  for (const reason of missedReasonKeys)
    page.add(
      `reason:${reason}`,
      input.reasons.filter((row) => row.reason === reason).reduce((sum, row) => sum + row.replies, 0),
    );
  const reasonTotal = missedReasonKeys.reduce((sum, reason) => sum + page.counts.get(`reason:${reason}`)!, 0);
  page.add('reason:all', reasonTotal);
  page.sums.push({ total: 'reason:all', parts: missedReasonKeys.map((reason) => `reason:${reason}`) });
  tables.push({
    id: 'missed-reasons',
    title: 'Reasons for missed doses, from replies',
    population:
      'Replies in the period, from patients with a fill of the products shown, that said a dose was missed or skipped, by the reason the reply gave (read by the reply classifier).',
    columns: ['Reason', 'Replies', 'Share of replies'],
    rows: [
      ...missedReasonKeys.map((reason) => ({
        key: reason,
        label: reasonLabels[reason],
        specs: [{ cell: `reason:${reason}` }, { share: [`reason:${reason}`, 'reason:all'] }] as Spec[],
      })),
      { key: 'all', label: 'All replies reporting a missed dose', specs: [{ cell: 'reason:all' }, { text: '' }] },
    ],
  });

  // Reasons for missed doses, from the barrier survey: patients, not replies, each over those asked about the reason.
  page.add('survey:respondents', input.surveyReasons.respondents);
  for (const reason of surveyReasonKeys) {
    const counted = input.surveyReasons.reasons.find((row) => row.reason === reason);
    const asked = counted?.asked ?? 0;
    const gave = counted?.gave ?? 0;
    page.add(`survey:${reason}:asked`, asked);
    page.add(`survey:${reason}:gave`, gave);
    // Those asked who did not give it: never shown, but a reader can subtract, so it is protected like any group.
    page.add(`survey:${reason}:not`, asked - gave, { display: 'never' });
    page.sums.push({ total: `survey:${reason}:asked`, parts: [`survey:${reason}:gave`, `survey:${reason}:not`] });
    page.orders.push({ smaller: `survey:${reason}:asked`, larger: 'survey:respondents' });
  }
  tables.push({
    id: 'survey-reasons',
    title: 'Reasons for missed doses, from surveys',
    population:
      'Patients with a fill of the products shown who completed the adherence-barriers survey in the period, by their latest answer in the period to each question: a reason is given when its question (e.g. “how often did you forget a dose?”) is answered often or sometimes, or when it is named as the main reason for stopping for a week or more. The survey asks each patient only some questions, so each reason’s share is of the patients asked about it; a patient may give several reasons.',
    columns: ['Reason', 'Patients giving it', 'Patients asked', 'Share of those asked'],
    rows: [
      ...surveyReasons.map((reason) => ({
        key: reason.key,
        label: reason.label,
        specs: [
          { cell: `survey:${reason.key}:gave` },
          { cell: `survey:${reason.key}:asked` },
          { share: [`survey:${reason.key}:gave`, `survey:${reason.key}:asked`] },
        ] as Spec[],
      })),
      { key: 'all', label: 'All patients who completed the survey', specs: [{ text: '' }, { cell: 'survey:respondents' }, { text: '' }] },
    ],
  });

  // Breakdowns of the period's cohort (size and share adherent); region, age band and sex each add up to it.
  type Dimension = { id: PortalDimensionId; title: string; labelOf: (key: string) => string; additive: boolean };
  const dimensions: Dimension[] = [
    { id: 'region', title: 'By region', labelOf: titleCase, additive: true },
    {
      id: 'age-band',
      title: 'By age band',
      labelOf: (key) => (key === NOT_RECORDED ? 'Not recorded' : key.replace('-', '–')),
      additive: true,
    },
    { id: 'sex', title: 'By sex', labelOf: titleCase, additive: true },
    {
      id: 'product',
      title: 'By product',
      labelOf: (key) => {
        const product = productById.get(key);
        return product === undefined ? key : `${product.name}${product.companyName === null ? '' : ` (${product.companyName})`}`;
      },
      additive: false,
    },
  ];
  if (audience === 'government')
    dimensions.push(
      {
        id: 'condition',
        title: 'By condition',
        labelOf: (key) => (conditionLabels as Record<string, string>)[key] ?? titleCase(key),
        additive: false,
      },
      {
        id: 'product-class',
        title: 'By product class (ATC)',
        labelOf: (key) => (key === NOT_RECORDED ? 'No ATC code' : `ATC ${key}`),
        additive: false,
      },
      {
        id: 'company',
        title: 'By company',
        labelOf: (key) => input.products.find((product) => product.companyId === key)?.companyName ?? 'No company',
        additive: false,
      },
    );
  for (const dimension of dimensions) {
    const groups = totals.groups[dimension.id];
    const keys = [...groups.keys()].sort((left, right) => left.localeCompare(right));
    const ids = keys.map((key) => {
      const group = groups.get(key)!;
      const id = `${dimension.id}:${key}`;
      page.addGroup(id, group.size, group.adherent);
      return id;
    });
    if (dimension.additive && ids.length > 0) {
      page.sums.push(
        { total: 'cohort', parts: ids },
        { total: 'cohort:adherent', parts: ids.map((id) => `${id}:adherent`) },
        { total: 'cohort:non-adherent', parts: ids.map((id) => `${id}:non-adherent`) },
      );
    }
    tables.push({
      id: `by-${dimension.id}`,
      title: `${dimension.title}: patients and share with PDC ≥ 0.8`,
      population: `Patients with a fill of the products shown in the period${dimension.additive ? '' : ' (a patient may count in several rows)'}; adherent: PDC ≥ 0.8 over the period.`,
      columns: [dimension.title.replace(/^By /, '').replace(/^./, (first) => first.toUpperCase()), 'Patients', 'Share with PDC ≥ 0.8'],
      rows: keys.map((key, index) => ({
        key,
        label: dimension.labelOf(key),
        specs: [{ cell: ids[index]! }, { share: [`${ids[index]!}:adherent`, ids[index]!] }] as Spec[],
      })),
    });
  }

  // One suppression for the whole page; were anything left unresolved, every count is hidden.
  const suppression = suppressPage({ cells: page.cells, sums: page.sums, orders: page.orders });
  let hidden: ReadonlyMap<string, HiddenReason> = suppression.hidden;
  const fullyHidden = suppression.unresolved.length > 0;
  if (fullyHidden)
    hidden = new Map(
      page.cells
        .filter((cell) => cell.count > 0 && cell.display !== 'never')
        .map((cell) => [cell.id, cell.count < SMALL_CELL_THRESHOLD ? ('small' as const) : ('complementary' as const)]),
    );
  const neverShown = new Set(page.cells.filter((cell) => cell.display === 'never').map((cell) => cell.id));
  const isKnown = (id: string) => !hidden.has(id) && !neverShown.has(id);
  const count = (id: string) => page.counts.get(id)!;
  const resolve = (spec: Spec): PortalValue => {
    if ('text' in spec) return { kind: 'text', value: spec.text };
    if ('cell' in spec) {
      const reason = hidden.get(spec.cell);
      if (reason === undefined) return { kind: 'count', value: count(spec.cell) };
      return { kind: 'hidden', label: reason === 'small' ? SUPPRESSED_LABEL : 'suppressed' };
    }
    if ('share' in spec) {
      const [numerator, denominator] = spec.share;
      // Rates only over denominators of at least 11, and only when both counts are known to the reader.
      // A rate over a group of 1–10 is "hidden" with it (the page's one suppression vocabulary); over none, no rate.
      if (count(denominator) === 0) return { kind: 'none', label: '–' };
      if (count(denominator) < SMALL_CELL_THRESHOLD) return { kind: 'none', label: 'hidden' };
      if (!isKnown(numerator) || !isKnown(denominator)) return { kind: 'none', label: 'hidden' };
      return { kind: 'share', value: count(numerator) / count(denominator) };
    }
    if (spec.rests.some((id) => count(id) === 0)) return { kind: 'none', label: '–' };
    if (spec.rests.some((id) => count(id) < SMALL_CELL_THRESHOLD)) return { kind: 'none', label: 'hidden' };
    if (spec.rests.some((id) => !isKnown(id)) || spec.figure === null)
      return { kind: 'none', label: spec.figure === null ? '–' : 'hidden' };
    return { kind: spec.kind, value: spec.figure };
  };

  // The worst window: the highest share of missed doses among slots whose counts are both shown, over ≥ 11 doses.
  let worstWindow: WorstWindow | null = null;
  weekdayNames.forEach((_, weekday) =>
    hours.forEach((hour) => {
      const confirmedId = `dose:confirmed:${weekday}:${hour}`;
      const missedId = `dose:missed:${weekday}:${hour}`;
      if (!isKnown(confirmedId) || !isKnown(missedId)) return;
      const scheduled = count(confirmedId) + count(missedId);
      if (scheduled < SMALL_CELL_THRESHOLD) return;
      const share = count(missedId) / scheduled;
      if (worstWindow === null || share > worstWindow.share) worstWindow = { weekday, hour, missed: count(missedId), scheduled, share };
    }),
  );

  const figures: PortalFigures = {
    tables: tables.map((table) => ({
      id: table.id,
      title: table.title,
      population: table.population,
      columns: table.columns,
      rows: table.rows.map((row) => ({ key: row.key, label: row.label, values: row.specs.map(resolve) })),
    })),
    worstWindow,
    fullyHidden,
  };
  return { figures, page: { cells: page.cells, sums: page.sums, orders: page.orders }, hidden };
}

function titleCase(key: string): string {
  if (key === NOT_RECORDED) return 'Not recorded';
  const words = key.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The days a patient's fills cover, as computePdc counts them (PQA: fills of one drug shift forward when an
 * early refill overlaps, drugs are united), as sorted disjoint [start, end) stretches: computed once per
 * patient so the PDC of each month is an intersection rather than a new computePdc run (12 runs per patient
 * were most of the page's time). Equal to computePdc over any window (portal-tables.test.ts).
 */
export function pqaCoverage(events: readonly MedicationEvent[]): { start: number; end: number }[] {
  const stretches: { start: number; end: number }[] = [];
  const suppliedUntil = new Map<string, number>();
  // Events are sorted by day, so each drug's fills come in date order.
  for (const event of events) {
    const start = Math.max(event.day, suppliedUntil.get(event.medicationClass) ?? -Infinity);
    const end = start + Math.max(0, event.duration);
    suppliedUntil.set(event.medicationClass, end);
    if (end > start) stretches.push({ start, end });
  }
  stretches.sort((left, right) => left.start - right.start);
  const merged: { start: number; end: number }[] = [];
  for (const stretch of stretches) {
    const last = merged[merged.length - 1];
    if (last !== undefined && stretch.start <= last.end) last.end = Math.max(last.end, stretch.end);
    else merged.push({ ...stretch });
  }
  return merged;
}

/** Covered days of [from, to) given pqaCoverage's stretches. */
export function coveredDaysIn(coverage: readonly { start: number; end: number }[], from: number, to: number): number {
  let days = 0;
  for (const stretch of coverage) {
    if (stretch.start >= to) break;
    days += Math.max(0, Math.min(stretch.end, to) - Math.max(stretch.start, from));
  }
  return days;
}
