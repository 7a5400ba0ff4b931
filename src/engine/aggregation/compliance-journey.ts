/**
 * The 12-month compliance journey of a cohort, as pure functions over patients already followed (no I/O):
 * monthly PDC from each patient's first fill in the period, its distribution (quartiles, PDC bands, share
 * with PDC ≥ 0.8) per month and per persona or product, and persistence on treatment (Kaplan–Meier; a gap
 * of more than 60 days ends it). For a privacy role every figure goes through small-cell suppression
 * (complementary too), and a filtered view shows only what the whole cohort's figures already show for
 * that group, so that comparing views cannot reveal a small group either.
 */
import { computePdc } from '@/engine/adherence/pdc';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS } from '@/engine/adherence/treatment-episodes';
import { computeKaplanMeier, type SurvivalSubject } from './kaplan-meier';
import { PERMISSIBLE_GAP_DAYS, type Period } from './reporting-period';
import {
  hiddenCount,
  isShareShowable,
  isSmallCell,
  type ShownCount,
  shownCount,
  suppressCount,
  suppressSmallCells,
  type SuppressionResult,
} from './small-cell-suppression';

export const JOURNEY_MONTHS = 12;
/** A journey month is 30 days from the patient's first fill in the period. */
export const MONTH_DAYS = 30;
export const ADHERENT_PDC = 0.8;
const PDC_BANDS = [
  { key: 'below-0.5', label: 'PDC below 0.5' },
  { key: '0.5-0.8', label: 'PDC 0.5 to under 0.8' },
  { key: 'at-least-0.8', label: 'PDC 0.8 or more' },
] as const;

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

/** A breakdown a privacy role does not get within a filtered group: it would cross-tabulate two groupings. */
export type WithheldBreakdown = 'bands' | 'persona' | 'product';

/** One patient on the journey, as the aggregation needs them. */
export type JourneyMember = {
  synthetic: boolean;
  personaKey: string;
  /** The medicine of the patient's first fill in the period. */
  productKey: string;
  /** Monthly PDC for journey months 1–12; null when the month is not over yet. */
  monthlyPdc: readonly (number | null)[];
  survival: SurvivalSubject;
};

/** Display labels of the persona and product keys. */
export type JourneyLabels = { persona: ReadonlyMap<string, string>; product: ReadonlyMap<string, string> };

export type JourneyFigures = {
  /** `synthetic` is null where its count is not shown (a filtered view for a privacy role). */
  cohort: { patients: ShownCount; synthetic: ShownCount | null; hasSynthetic: boolean };
  pdcByMonth: PdcMonth[];
  pdcByPersona: GroupMonthlyPdc[];
  pdcByProduct: GroupMonthlyPdc[];
  persistence: { overall: PersistenceCurve; byPersona: PersistenceCurve[]; byProduct: PersistenceCurve[] };
  withheld: WithheldBreakdown[];
};

/**
 * A patient's journey from their medication events (sorted by day, any before the period carrying supply
 * in): the first fill in the period starts it; null without a fill in the period (not on this journey).
 */
export function followJourney(
  events: readonly MedicationEvent[],
  period: Period,
): { index: MedicationEvent; monthlyPdc: (number | null)[]; survival: SurvivalSubject } | null {
  const index = events.find((event) => event.day >= period.start && event.day < period.end);
  if (index === undefined) return null;
  return {
    index,
    monthlyPdc: journeyMonthlyPdc(events, index.day, period.end),
    survival: journeyPersistence(
      events.filter((event) => event.day >= index.day),
      index.day,
      period.end,
    ),
  };
}

function show(count: number, suppressed: boolean): ShownCount {
  return suppressed ? suppressCount(count) : shownCount(count);
}

/** Every figure of the journey for these patients; with `suppressed`, through small-cell suppression. */
export function summariseJourney(cohort: readonly JourneyMember[], labels: JourneyLabels, suppressed: boolean): JourneyFigures {
  const pdcByMonth = Array.from({ length: JOURNEY_MONTHS }, (_, monthIndex) => summariseMonth(cohort, monthIndex, suppressed));
  const overall = curve('all', 'All patients', cohort, suppressed);
  const personaOf = (patient: JourneyMember) => patient.personaKey;
  const productOf = (patient: JourneyMember) => patient.productKey;
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
function summariseCohort(cohort: readonly JourneyMember[], suppressed: boolean): JourneyFigures['cohort'] {
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
export function sliceJourneyGroup(
  whole: JourneyFigures,
  dimension: 'persona' | 'product',
  key: string,
  labels: JourneyLabels,
  hasSynthetic: boolean,
): JourneyFigures {
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
    persistence: {
      overall: groupCurve,
      byPersona: dimension === 'persona' ? [groupCurve] : [],
      byProduct: dimension === 'product' ? [groupCurve] : [],
    },
    withheld: ['bands', dimension === 'persona' ? 'product' : 'persona'],
  };
}

/** PDC of each 30-day journey month that has ended by the period's end (earlier supply carries in). */
export function journeyMonthlyPdc(events: readonly MedicationEvent[], indexDay: number, end: number): (number | null)[] {
  const fills = events.map((event) => ({ day: event.day, daysSupply: event.duration, drug: event.medicationClass }));
  return Array.from({ length: JOURNEY_MONTHS }, (_, monthIndex) => {
    const start = indexDay + monthIndex * MONTH_DAYS;
    if (start + MONTH_DAYS > end) return null;
    return computePdc({ fills, periodStart: start, periodEnd: start + MONTH_DAYS }).pdc;
  });
}

/** Days from the first fill to discontinuation (the first episode's end), or censored at the period's end. */
export function journeyPersistence(events: readonly MedicationEvent[], indexDay: number, end: number): SurvivalSubject {
  const [first] = computeTreatmentEpisodes(
    events,
    { followUpEnd: end },
    { ...DEFAULT_EPISODE_SETTINGS, maximumPermissibleGap: PERMISSIBLE_GAP_DAYS },
  );
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
function monthValues(members: readonly JourneyMember[], monthIndex: number): number[] {
  return members
    .map((patient) => patient.monthlyPdc[monthIndex])
    .filter((value): value is number => value !== null && value !== undefined)
    .sort((left, right) => left - right);
}

function summariseMonth(cohort: readonly JourneyMember[], monthIndex: number, suppressed: boolean): PdcMonth {
  const values = monthValues(cohort, monthIndex);
  const counts = [
    values.filter((value) => value < 0.5).length,
    values.filter((value) => value >= 0.5 && value < ADHERENT_PDC).length,
    values.filter((value) => value >= ADHERENT_PDC).length,
  ];
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
      total === 0 ||
      (suppressed && (!isShareShowable(adherent, total) || shown?.groups[2]?.suppressed === true || shown?.total?.suppressed === true))
        ? null
        : adherent / total,
    bands: PDC_BANDS.map((band, index) => ({
      key: band.key,
      label: band.label,
      patients: shown?.groups[index] ?? shownCount(counts[index]!),
    })),
  };
}

/** Patients by group, in the order of the groups' labels. */
function groupMembers(
  cohort: readonly JourneyMember[],
  groupOf: (patient: JourneyMember) => string,
  labels: ReadonlyMap<string, string>,
): Map<string, JourneyMember[]> {
  const members = new Map<string, JourneyMember[]>();
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
  cohort: readonly JourneyMember[],
  groupOf: (patient: JourneyMember) => string,
  labels: ReadonlyMap<string, string>,
  months: readonly PdcMonth[],
  suppressed: boolean,
): GroupMonthlyPdc[] {
  const members = groupMembers(cohort, groupOf, labels);
  const keys = [...members.keys()];
  const sizes = suppressed
    ? suppressSmallCells({ groups: keys.map((key) => ({ key, count: members.get(key)!.length })), total: cohort.length })
    : null;
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
    const sizesThisMonth = suppressSmallCells({
      groups: keys.map((key, index) => ({ key, count: values[index]!.length })),
      total: monthTotal.suppressed ? undefined : (monthTotal.count ?? undefined),
    });
    const hideAll = hidesShownTotal(sizesThisMonth, !monthTotal.suppressed);
    // The month's adherent and non-adherent totals are known to the reader exactly when its share is shown.
    const totalAdherent = month.adherentShare === null ? undefined : adherent.reduce((sum, count) => sum + count, 0);
    const totalNonAdherent = totalAdherent === undefined ? undefined : (monthTotal.count ?? 0) - totalAdherent;
    const adherentShown = suppressSmallCells({
      groups: keys.map((key, index) => ({ key, count: adherent[index]! })),
      total: totalAdherent,
    });
    const nonAdherentShown = suppressSmallCells({
      groups: keys.map((key, index) => ({ key, count: values[index]!.length - adherent[index]! })),
      total: totalNonAdherent,
    });
    const hideShares =
      hidesShownTotal(adherentShown, totalAdherent !== undefined) || hidesShownTotal(nonAdherentShown, totalNonAdherent !== undefined);
    return values.map((own, index) => {
      const patients = hideAll ? hiddenCount('small') : sizesThisMonth.groups[index]!;
      const showQuartiles = !hideAll && own.length > 0 && patients.reason !== 'small';
      const showShare =
        showQuartiles &&
        !patients.suppressed &&
        !hideShares &&
        !adherentShown.groups[index]!.suppressed &&
        !nonAdherentShown.groups[index]!.suppressed;
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

function curve(key: string, label: string, members: readonly JourneyMember[], suppressed: boolean): PersistenceCurve {
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
  cohort: readonly JourneyMember[],
  groupOf: (patient: JourneyMember) => string,
  labels: ReadonlyMap<string, string>,
  overall: PersistenceCurve,
  suppressed: boolean,
): PersistenceCurve[] {
  const members = groupMembers(cohort, groupOf, labels);
  const curves = [...members].map(([key, own]) => curve(key, labels.get(key) ?? key, own, false));
  if (!suppressed) return curves;

  const sizes = suppressSmallCells({
    groups: curves.map((entry) => ({ key: entry.key, count: entry.patients.count ?? 0 })),
    total: cohort.length,
  });
  // The cohort size is shown; had it needed hiding to protect the groups, the groups are not shown at all.
  if (sizes.total?.suppressed === true && !overall.patients.suppressed) return [];
  const atRiskByMonth = CURVE_DAYS.map((_, month) => {
    const shownTotal = overall.points[month]!.atRisk;
    const result = suppressSmallCells({
      groups: curves.map((entry) => ({ key: entry.key, count: entry.points[month]!.atRisk.count ?? 0 })),
      total: shownTotal.count ?? undefined,
    });
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
