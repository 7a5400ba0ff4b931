import { and, asc, eq, exists, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, patients, products } from '@/db/schema';
import { computeKaplanMeier, type SurvivalSubject } from '@/engine/aggregation/kaplan-meier';
import {
  hiddenCount,
  isShareShowable,
  isSmallCell,
  type ShownCount,
  shownCount,
  suppressCount,
  suppressSmallCells,
  type SuppressionResult,
} from '@/engine/aggregation/small-cell-suppression';
import { computePdc, computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS, type MedicationEvent } from '@/engine/adherence';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import type { JourneyFilters } from '../schemas';
import { drugOf, findReportingPeriod, isoDay, medicationEventsFrom, PERIOD_DAYS, PERMISSIBLE_GAP_DAYS, SUPPRESSED_ROLES } from './adherence-period';
import { findCohortScope } from './find-cohort-scope';
import { suppressJourneyPage } from './suppress-journey-page';

export const JOURNEY_MONTHS = 12;
/** A journey month is 30 days from the patient's first fill in the period. */
export const MONTH_DAYS = 30;
export const ADHERENT_PDC = 0.8;
const TRAJECTORY_LIMIT = 25;
const PDC_BANDS = [
  { key: 'below-0.5', label: 'PDC below 0.5' },
  { key: '0.5-0.8', label: 'PDC 0.5 to under 0.8' },
  { key: 'at-least-0.8', label: 'PDC 0.8 or more' },
] as const;
/** The persona key of patients without one (imported records). */
export const PERSONA_NOT_ASSIGNED = 'not-assigned';

export type PdcQuartiles = { q1: number; median: number; q3: number };

export type GroupPdcMonth = {
  month: number;
  /** Patients followed for the whole month. */
  patients: ShownCount;
  /** Quartiles of monthly PDC; null when hidden (fewer than 11 patients) or no patients. */
  quartiles: PdcQuartiles | null;
  /** Share with PDC ≥ 0.8; null when hidden. */
  adherentShare: number | null;
};

export type PdcMonth = GroupPdcMonth & {
  /** Patients per PDC band; empty where the bands are withheld (see `withheld`). */
  bands: { key: string; label: string; patients: ShownCount }[];
};

/** Monthly PDC of one persona or product. */
export type GroupMonthlyPdc = { key: string; label: string; patients: ShownCount; months: GroupPdcMonth[] };

export type PersistenceCurve = {
  key: string;
  label: string;
  patients: ShownCount;
  /** Month 0–12: share still persisting (null where hidden) and patients at risk. */
  points: { month: number; persisting: number | null; atRisk: ShownCount }[];
};

export type Trajectory = { pseudonym: string; synthetic: boolean; persona: string | null; monthlyPdc: (number | null)[] };

export type FilterOption = { value: string; label: string };
export type JourneyFilterOptions = { personas: FilterOption[]; products: FilterOption[] };

/** A breakdown a privacy role does not get within a filtered group: it would cross-tabulate two groupings. */
export type WithheldBreakdown = 'bands' | 'persona' | 'product';

export type ComplianceJourney = {
  status: 'ok';
  scope: 'organisation' | 'companies' | 'all';
  /** For manufacturers: the companies whose products the cohort is drawn from. */
  companies: string[];
  suppressed: boolean;
  filters: JourneyFilters;
  options: JourneyFilterOptions;
  period: { start: string; end: string };
  /** `synthetic` is null where its count is not shown (a filtered view for a privacy role). */
  cohort: { patients: ShownCount; synthetic: ShownCount | null; hasSynthetic: boolean };
  pdcByMonth: PdcMonth[];
  pdcByPersona: GroupMonthlyPdc[];
  pdcByProduct: GroupMonthlyPdc[];
  persistence: { overall: PersistenceCurve; byPersona: PersistenceCurve[]; byProduct: PersistenceCurve[] };
  withheld: WithheldBreakdown[];
  /** Only for clinicians (their organisations) and admins; null for everyone else. */
  trajectories: { shown: Trajectory[]; total: number } | null;
};

export type ComplianceJourneyResult =
  | ComplianceJourney
  | { status: 'no-company' }
  | { status: 'invalid-filter'; field: 'persona' | 'product'; message: string; filters: JourneyFilters; options: JourneyFilterOptions }
  | { status: 'filters-not-combined'; filters: JourneyFilters; options: JourneyFilterOptions };

type CohortPatient = {
  pseudonym: string;
  synthetic: boolean;
  personaKey: string;
  persona: string | null;
  /** The medicine of the patient's first fill in the period (within the scope's products). */
  productKey: string;
  /** Monthly PDC for journey months 1–12; null when the month is not over yet. */
  monthlyPdc: (number | null)[];
  survival: SurvivalSubject;
};

type Labels = { persona: Map<string, string>; product: Map<string, string> };

type JourneyFigures = Pick<ComplianceJourney, 'cohort' | 'pdcByMonth' | 'pdcByPersona' | 'pdcByProduct' | 'persistence' | 'withheld'>;

/**
 * A cohort's 12-month journey: monthly PDC from each patient's first fill in the period, persistence on
 * treatment (Kaplan–Meier, a gap of more than 60 days ends it) by persona and product, and — for clinicians
 * and admins — individual trajectories; optionally for one persona and/or one product (the medicine of the
 * first fill). Who sees which patients is `findCohortScope`'s rule: manufacturers only their companies'
 * products. Patients, manufacturers and government officials get every group through small-cell
 * suppression; for them a filtered view shows only figures the whole cohort's page already shows for that
 * group (suppressed the same way), so that comparing pages cannot reveal a small group either.
 */
export async function getComplianceJourney(options: {
  database: Database;
  actor: SessionUser | null;
  filters?: JourneyFilters;
  now?: Date;
}): Promise<ComplianceJourneyResult> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const filters: JourneyFilters = options.filters ?? { persona: null, product: null };
  const suppressed = SUPPRESSED_ROLES.has(actor.role);
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const period = await findReportingPeriod({ database, now: options.now ?? new Date() });

  // Which patients (and, for manufacturers, which dispensings) the cohort is drawn from; an empty scope runs no query.
  let patientScope: SQL | undefined;
  let fillScope: SQL | undefined;
  let empty = false;
  if (scope.kind === 'organisation') {
    empty = scope.organisationIds.length === 0;
    patientScope = empty ? undefined : inArray(patients.organisationId, scope.organisationIds);
  } else if (scope.kind === 'companies') {
    empty = scope.productIds.length === 0;
    if (!empty) {
      fillScope = inArray(dispensings.productId, scope.productIds);
      patientScope = exists(
        database
          .select({ patientId: dispensings.patientId })
          .from(dispensings)
          .where(and(eq(dispensings.patientId, patients.id), fillScope)),
      );
    }
  }

  const cohortRows = empty
    ? []
    : await database
        .select({ id: patients.id, pseudonym: patients.pseudonym, synthetic: patients.synthetic, persona: patients.persona })
        .from(patients)
        .where(patientScope)
        .orderBy(asc(patients.pseudonym));
  // One earlier year of fills, so supply dispensed before the period carries into it.
  const lookbackStart = isoDay(period.start - PERIOD_DAYS);
  const fillRows =
    cohortRows.length === 0
      ? []
      : await database
          .select({
            patientId: dispensings.patientId,
            productId: dispensings.productId,
            medicationCode: dispensings.medicationCode,
            dispensedOn: dispensings.dispensedOn,
            daysSupply: dispensings.daysSupply,
            dosesPerDay: dispensings.dosesPerDay,
            productName: products.name,
          })
          .from(dispensings)
          .innerJoin(patients, eq(patients.id, dispensings.patientId))
          .leftJoin(products, eq(products.id, dispensings.productId))
          .where(and(scope.kind === 'companies' ? fillScope : patientScope, gte(dispensings.dispensedOn, lookbackStart), lt(dispensings.dispensedOn, isoDay(period.end))));

  const fillsByPatient = new Map<string, typeof fillRows>();
  for (const fill of fillRows) {
    const own = fillsByPatient.get(fill.patientId);
    if (own === undefined) fillsByPatient.set(fill.patientId, [fill]);
    else own.push(fill);
  }

  const labels: Labels = { persona: new Map(), product: new Map() };
  const cohort: CohortPatient[] = [];
  for (const patient of cohortRows) {
    const fills = fillsByPatient.get(patient.id) ?? [];
    const events = medicationEventsFrom(fills, period.end);
    const index = events.find((event) => event.day >= period.start);
    if (index === undefined) continue; // no fill in the period: not on this journey
    const indexFill = fills.find((fill) => drugOf(fill) === index.medicationClass);
    const personaKey = patient.persona === null ? PERSONA_NOT_ASSIGNED : filterKeyOf(patient.persona);
    const productKey = filterKeyOf(index.medicationClass);
    labels.persona.set(personaKey, patient.persona === null ? 'Not assigned' : personaLabel(patient.persona));
    labels.product.set(productKey, indexFill?.productName ?? indexFill?.medicationCode ?? 'Unknown medication');
    cohort.push({
      pseudonym: patient.pseudonym,
      synthetic: patient.synthetic,
      personaKey,
      persona: patient.persona,
      productKey,
      monthlyPdc: monthlyPdc(events, index.day, period.end),
      survival: persistence(
        events.filter((event) => event.day >= index.day),
        index.day,
        period.end,
      ),
    });
  }

  const filterOptions: JourneyFilterOptions = { personas: optionsOf(labels.persona), products: optionsOf(labels.product) };
  if (filters.persona !== null && !labels.persona.has(filters.persona)) {
    return { status: 'invalid-filter', field: 'persona', message: `persona: “${filters.persona}” is not a persona of this cohort. Choose one from the list.`, filters, options: filterOptions };
  }
  // The same words whether the product exists elsewhere or not: a manufacturer learns nothing of other companies' products.
  if (filters.product !== null && !labels.product.has(filters.product)) {
    return { status: 'invalid-filter', field: 'product', message: `product: “${filters.product}” is not one of the products you can view. Choose one from the list.`, filters, options: filterOptions };
  }

  let figures: JourneyFigures;
  let members = cohort;
  if (!suppressed) {
    members = cohort.filter((patient) => (filters.persona === null || patient.personaKey === filters.persona) && (filters.product === null || patient.productKey === filters.product));
    figures = summarise(members, labels, false);
  } else if (filters.persona !== null && filters.product !== null) {
    // Persona × product cells would need suppression across both groupings and every month at once.
    return { status: 'filters-not-combined', filters, options: filterOptions };
  } else {
    // Suppressed as one page: a group hidden in one table must not be derivable from another (issue 10 item 6).
    const whole = suppressJourneyPage(summarise(cohort, labels, false));
    if (filters.persona !== null) figures = sliceGroup(whole, 'persona', filters.persona, labels, cohort.some((patient) => patient.synthetic && patient.personaKey === filters.persona));
    else if (filters.product !== null) figures = sliceGroup(whole, 'product', filters.product, labels, cohort.some((patient) => patient.synthetic && patient.productKey === filters.product));
    else figures = whole;
  }

  const mayListPatients = actor.role === 'clinician' || actor.role === 'admin';
  return {
    status: 'ok',
    scope: scope.kind,
    companies: scope.kind === 'companies' ? scope.companies.map((company) => company.name) : [],
    suppressed,
    filters,
    options: filterOptions,
    period: { start: isoDay(period.start), end: isoDay(period.end - 1) },
    ...figures,
    trajectories: mayListPatients
      ? {
          total: members.length,
          shown: members.slice(0, TRAJECTORY_LIMIT).map((patient) => ({ pseudonym: patient.pseudonym, synthetic: patient.synthetic, persona: patient.persona, monthlyPdc: patient.monthlyPdc })),
        }
      : null,
  };
}

/** A key usable in the address (schemas.ts accepts letters, digits, ".", "_", ":" and "-"). */
function filterKeyOf(value: string): string {
  const key = value.replace(/[^A-Za-z0-9._:-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return key === '' ? 'unknown' : key;
}

/** "busy-professional" → "Busy professional". */
function personaLabel(persona: string): string {
  const words = persona.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function optionsOf(labels: ReadonlyMap<string, string>): FilterOption[] {
  return [...labels].map(([value, label]) => ({ value, label })).sort((left, right) => left.label.localeCompare(right.label) || left.value.localeCompare(right.value));
}

function show(count: number, suppressed: boolean): ShownCount {
  return suppressed ? suppressCount(count) : shownCount(count);
}

/** Every figure of the page for these patients; with `suppressed`, through small-cell suppression. */
function summarise(cohort: readonly CohortPatient[], labels: Labels, suppressed: boolean): JourneyFigures {
  const pdcByMonth = Array.from({ length: JOURNEY_MONTHS }, (_, monthIndex) => summariseMonth(cohort, monthIndex, suppressed));
  const overall = curve('all', 'All patients', cohort, suppressed);
  const personaOf = (patient: CohortPatient) => patient.personaKey;
  const productOf = (patient: CohortPatient) => patient.productKey;
  return {
    cohort: summariseCohort(cohort, suppressed),
    pdcByMonth,
    pdcByPersona: groupMonthlyPdc(cohort, personaOf, labels.persona, pdcByMonth, suppressed),
    pdcByProduct: groupMonthlyPdc(cohort, productOf, labels.product, pdcByMonth, suppressed),
    persistence: {
      overall,
      byPersona: groupCurves(cohort, personaOf, labels.persona, overall, suppressed),
      byProduct: groupCurves(cohort, productOf, labels.product, overall, suppressed),
    },
    withheld: [],
  };
}

/** Cohort size and how many are synthetic; the two parts (synthetic, real) are suppressed together against the size. */
function summariseCohort(cohort: readonly CohortPatient[], suppressed: boolean): JourneyFigures['cohort'] {
  const synthetic = cohort.filter((patient) => patient.synthetic).length;
  const hasSynthetic = synthetic > 0;
  if (!suppressed) return { patients: shownCount(cohort.length), synthetic: shownCount(synthetic), hasSynthetic };
  const patientsShown = suppressCount(cohort.length);
  const parts = suppressSmallCells({
    groups: [
      { key: 'synthetic', count: synthetic },
      { key: 'real', count: cohort.length - synthetic },
    ],
    total: cohort.length,
  });
  // Had the size needed hiding to protect the parts, the synthetic count is not shown at all.
  const syntheticShown = parts.total?.suppressed === true && !patientsShown.suppressed ? null : parts.groups[0]!;
  return { patients: patientsShown, synthetic: syntheticShown, hasSynthetic };
}

/**
 * A privacy role's view of one persona or product: that group's row of the whole cohort's figures, as
 * suppressed there. Breakdowns inside the group (PDC bands, the other grouping) are withheld.
 */
function sliceGroup(whole: JourneyFigures, dimension: 'persona' | 'product', key: string, labels: Labels, hasSynthetic: boolean): JourneyFigures {
  const label = labels[dimension].get(key) ?? key;
  const curves = dimension === 'persona' ? whole.persistence.byPersona : whole.persistence.byProduct;
  const monthly = dimension === 'persona' ? whole.pdcByPersona : whole.pdcByProduct;
  // The groups are absent only when they had to be hidden altogether (see groupCurves): then so is this one.
  const hiddenGroup = hiddenCount('small');
  const groupCurve = curves.find((entry) => entry.key === key) ?? {
    key,
    label,
    patients: hiddenGroup,
    points: whole.persistence.overall.points.map((point) => ({ month: point.month, persisting: null, atRisk: hiddenGroup })),
  };
  const group = monthly.find((entry) => entry.key === key) ?? {
    key,
    label,
    patients: hiddenGroup,
    months: whole.pdcByMonth.map((month) => ({ month: month.month, patients: hiddenGroup, quartiles: null, adherentShare: null })),
  };
  return {
    cohort: { patients: groupCurve.patients, synthetic: null, hasSynthetic },
    pdcByMonth: group.months.map((month) => ({ ...month, bands: [] })),
    pdcByPersona: dimension === 'persona' ? [group] : [],
    pdcByProduct: dimension === 'product' ? [group] : [],
    persistence: { overall: groupCurve, byPersona: dimension === 'persona' ? [groupCurve] : [], byProduct: dimension === 'product' ? [groupCurve] : [] },
    withheld: ['bands', dimension === 'persona' ? 'product' : 'persona'],
  };
}

/** PDC of each 30-day journey month that has ended by the period's end (earlier supply carries in). */
function monthlyPdc(events: readonly MedicationEvent[], indexDay: number, end: number): (number | null)[] {
  const fills = events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass }));
  return Array.from({ length: JOURNEY_MONTHS }, (_, monthIndex) => {
    const start = indexDay + monthIndex * MONTH_DAYS;
    if (start + MONTH_DAYS > end) return null;
    return computePdc({ fills, periodStart: start, periodEnd: start + MONTH_DAYS }).pdc;
  });
}

/** Days from the first fill to discontinuation (the first episode's end), or censored at the period's end. */
function persistence(events: readonly MedicationEvent[], indexDay: number, end: number): SurvivalSubject {
  const [first] = computeTreatmentEpisodes(events, { followUpEnd: end }, { ...DEFAULT_EPISODE_SETTINGS, maximumPermissibleGap: PERMISSIBLE_GAP_DAYS });
  if (first === undefined || first.end >= end) return { time: end - indexDay, event: false };
  return { time: first.end - indexDay, event: true };
}

function quantile(sorted: readonly number[], share: number): number {
  // Linear interpolation between order statistics (R's type 7, the common default).
  const position = (sorted.length - 1) * share;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

function quartilesOf(sorted: readonly number[]): PdcQuartiles {
  return { q1: quantile(sorted, 0.25), median: quantile(sorted, 0.5), q3: quantile(sorted, 0.75) };
}

/** Sorted PDC values of a journey month (patients followed for the whole month). */
function monthValues(members: readonly CohortPatient[], monthIndex: number): number[] {
  return members
    .map((patient) => patient.monthlyPdc[monthIndex])
    .filter((value): value is number => value !== null && value !== undefined)
    .sort((left, right) => left - right);
}

function summariseMonth(cohort: readonly CohortPatient[], monthIndex: number, suppressed: boolean): PdcMonth {
  const values = monthValues(cohort, monthIndex);
  const counts = [values.filter((value) => value < 0.5).length, values.filter((value) => value >= 0.5 && value < ADHERENT_PDC).length, values.filter((value) => value >= ADHERENT_PDC).length];
  const total = values.length;
  const groups = PDC_BANDS.map((band, index) => ({ key: band.key, count: counts[index]! }));
  const shown = suppressed ? suppressSmallCells({ groups, total }) : null;
  const adherent = counts[2]!;
  const hideAll = suppressed && isSmallCell(total);
  return {
    month: monthIndex + 1,
    patients: shown?.total ?? shownCount(total),
    quartiles: total === 0 || hideAll ? null : quartilesOf(values),
    adherentShare:
      total === 0 || (suppressed && (!isShareShowable(adherent, total) || shown?.groups[2]?.suppressed === true || shown?.total?.suppressed === true)) ? null : adherent / total,
    bands: PDC_BANDS.map((band, index) => ({ key: band.key, label: band.label, patients: shown?.groups[index] ?? shownCount(counts[index]!) })),
  };
}

/** Patients by group, in the order of the groups' labels. */
function groupMembers(cohort: readonly CohortPatient[], groupOf: (patient: CohortPatient) => string, labels: ReadonlyMap<string, string>): Map<string, CohortPatient[]> {
  const members = new Map<string, CohortPatient[]>();
  for (const patient of cohort) {
    const key = groupOf(patient);
    const own = members.get(key);
    if (own === undefined) members.set(key, [patient]);
    else own.push(patient);
  }
  const label = (key: string) => labels.get(key) ?? key;
  return new Map([...members].sort(([left], [right]) => label(left).localeCompare(label(right)) || left.localeCompare(right)));
}

/** Whether a suppression had to hide its total although that total is shown elsewhere: then no group may be shown. */
function hidesShownTotal(result: SuppressionResult, totalShown: boolean): boolean {
  return totalShown && result.total?.suppressed === true;
}

/**
 * Monthly PDC per group (persona or product). When suppressed, each month's groups are suppressed together
 * against that month's number of patients (shown in the monthly table), and a group's share with PDC ≥ 0.8
 * is shown only when its adherent and non-adherent counts could be shown too — suppressed across the groups
 * against the month's totals — since a share times a shown size gives the count.
 */
function groupMonthlyPdc(
  cohort: readonly CohortPatient[],
  groupOf: (patient: CohortPatient) => string,
  labels: ReadonlyMap<string, string>,
  months: readonly PdcMonth[],
  suppressed: boolean,
): GroupMonthlyPdc[] {
  const members = groupMembers(cohort, groupOf, labels);
  const keys = [...members.keys()];
  const sizes = suppressed ? suppressSmallCells({ groups: keys.map((key) => ({ key, count: members.get(key)!.length })), total: cohort.length }) : null;
  const hideAllSizes = sizes !== null && hidesShownTotal(sizes, !isSmallCell(cohort.length));

  const monthRows = months.map((month, monthIndex) => {
    const values = keys.map((key) => monthValues(members.get(key)!, monthIndex));
    const adherent = values.map((own) => own.filter((value) => value >= ADHERENT_PDC).length);
    if (!suppressed) {
      return values.map((own, index) => ({
        month: month.month,
        patients: shownCount(own.length),
        quartiles: own.length === 0 ? null : quartilesOf(own),
        adherentShare: own.length === 0 ? null : adherent[index]! / own.length,
      }));
    }
    const monthTotal = month.patients;
    const sizesThisMonth = suppressSmallCells({ groups: keys.map((key, index) => ({ key, count: values[index]!.length })), total: monthTotal.suppressed ? undefined : (monthTotal.count ?? undefined) });
    const hideAll = hidesShownTotal(sizesThisMonth, !monthTotal.suppressed);
    // The month's adherent and non-adherent totals are known to the reader exactly when its share is shown.
    const totalAdherent = month.adherentShare === null ? undefined : adherent.reduce((sum, count) => sum + count, 0);
    const totalNonAdherent = totalAdherent === undefined ? undefined : (monthTotal.count ?? 0) - totalAdherent;
    const adherentShown = suppressSmallCells({ groups: keys.map((key, index) => ({ key, count: adherent[index]! })), total: totalAdherent });
    const nonAdherentShown = suppressSmallCells({ groups: keys.map((key, index) => ({ key, count: values[index]!.length - adherent[index]! })), total: totalNonAdherent });
    const hideShares = hidesShownTotal(adherentShown, totalAdherent !== undefined) || hidesShownTotal(nonAdherentShown, totalNonAdherent !== undefined);
    return values.map((own, index) => {
      const patients = hideAll ? hiddenCount('small') : sizesThisMonth.groups[index]!;
      const showQuartiles = !hideAll && own.length > 0 && patients.reason !== 'small';
      const showShare =
        showQuartiles && !patients.suppressed && !hideShares && !adherentShown.groups[index]!.suppressed && !nonAdherentShown.groups[index]!.suppressed;
      return {
        month: month.month,
        patients,
        quartiles: showQuartiles ? quartilesOf(own) : null,
        adherentShare: showShare ? adherent[index]! / own.length : null,
      };
    });
  });

  return keys.map((key, index) => ({
    key,
    label: labels.get(key) ?? key,
    patients: sizes === null ? shownCount(members.get(key)!.length) : hideAllSizes ? hiddenCount('small') : sizes.groups[index]!,
    months: monthRows.map((row) => row[index]!),
  }));
}

const CURVE_DAYS = Array.from({ length: JOURNEY_MONTHS + 1 }, (_, month) => month * MONTH_DAYS);

function curve(key: string, label: string, members: readonly CohortPatient[], suppressed: boolean): PersistenceCurve {
  const points = computeKaplanMeier(
    members.map((member) => member.survival),
    CURVE_DAYS,
  );
  return {
    key,
    label,
    patients: show(members.length, suppressed),
    points: points.map((point, month) => {
      const atRisk = show(point.atRisk, suppressed);
      return { month, persisting: atRisk.reason === 'small' ? null : point.survival, atRisk };
    }),
  };
}

/**
 * Curves per group; when suppressed, group sizes and each month's numbers at risk are suppressed together
 * against the overall figures shown beside them, so no small group can be derived by subtraction.
 */
function groupCurves(
  cohort: readonly CohortPatient[],
  groupOf: (patient: CohortPatient) => string,
  labels: ReadonlyMap<string, string>,
  overall: PersistenceCurve,
  suppressed: boolean,
): PersistenceCurve[] {
  const members = groupMembers(cohort, groupOf, labels);
  const curves = [...members].map(([key, own]) => curve(key, labels.get(key) ?? key, own, false));
  if (!suppressed) return curves;

  const sizes = suppressSmallCells({ groups: curves.map((entry) => ({ key: entry.key, count: entry.patients.count ?? 0 })), total: cohort.length });
  // The cohort size is shown; had it needed hiding to protect the groups, the groups are not shown at all.
  if (sizes.total?.suppressed === true && !overall.patients.suppressed) return [];
  const atRiskByMonth = CURVE_DAYS.map((_, month) => {
    const shownTotal = overall.points[month]!.atRisk;
    const result = suppressSmallCells({ groups: curves.map((entry) => ({ key: entry.key, count: entry.points[month]!.atRisk.count ?? 0 })), total: shownTotal.count ?? undefined });
    // Same case month by month: then every group's number at risk, zeros too, reads "<11".
    const hideAll = result.total?.suppressed === true && !shownTotal.suppressed;
    return hideAll ? result.groups.map((group) => ({ ...group, ...hiddenCount('small') })) : result.groups;
  });
  return curves.map((entry, index) => {
    const size = sizes.groups[index]!;
    return {
      ...entry,
      patients: size,
      points: entry.points.map((point, month) => {
        const atRisk = atRiskByMonth[month]![index]!;
        // A group too small to show has no curve at all; elsewhere the curve stops where fewer than 11 remain.
        const hidden = size.reason === 'small' || atRisk.reason === 'small' || isSmallCell(point.atRisk.count ?? 0);
        return { month, persisting: hidden ? null : point.persisting, atRisk };
      }),
    };
  });
}
