import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, organisationMemberships, patients, products } from '@/db/schema';
import { computeKaplanMeier, type SurvivalSubject } from '@/engine/aggregation/kaplan-meier';
import { isShareShowable, isSmallCell, type ShownCount, suppressCount, suppressSmallCells } from '@/engine/aggregation/small-cell-suppression';
import { computePdc, computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS, type MedicationEvent } from '@/engine/adherence';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { drugOf, findReportingPeriod, isoDay, medicationEventsFrom, PERIOD_DAYS, PERMISSIBLE_GAP_DAYS, SUPPRESSED_ROLES } from './adherence-period';

export const JOURNEY_MONTHS = 12;
/** A journey month is 30 days from the patient's first fill in the period. */
export const MONTH_DAYS = 30;
const ADHERENT_PDC = 0.8;
const TRAJECTORY_LIMIT = 25;
const PDC_BANDS = [
  { key: 'below-0.5', label: 'PDC below 0.5' },
  { key: '0.5-0.8', label: 'PDC 0.5 to under 0.8' },
  { key: 'at-least-0.8', label: 'PDC 0.8 or more' },
] as const;

export type PdcMonth = {
  month: number;
  /** Patients followed for the whole month. */
  patients: ShownCount;
  /** Quartiles of monthly PDC; null when hidden (fewer than 11 patients) or no patients. */
  quartiles: { q1: number; median: number; q3: number } | null;
  /** Share with PDC ≥ 0.8; null when hidden. */
  adherentShare: number | null;
  bands: { key: string; label: string; patients: ShownCount }[];
};

export type PersistenceCurve = {
  key: string;
  label: string;
  patients: ShownCount;
  /** Month 0–12: share still persisting (null where hidden) and patients at risk. */
  points: { month: number; persisting: number | null; atRisk: ShownCount }[];
};

export type Trajectory = { pseudonym: string; synthetic: boolean; persona: string | null; monthlyPdc: (number | null)[] };

export type ComplianceJourney = {
  scope: 'organisation' | 'all';
  suppressed: boolean;
  period: { start: string; end: string };
  cohort: { patients: ShownCount; synthetic: ShownCount };
  pdcByMonth: PdcMonth[];
  persistence: { overall: PersistenceCurve; byPersona: PersistenceCurve[]; byProduct: PersistenceCurve[] };
  /** Only for clinicians (their organisations) and admins; null for everyone else. */
  trajectories: { shown: Trajectory[]; total: number } | null;
};

type CohortPatient = {
  pseudonym: string;
  synthetic: boolean;
  persona: string | null;
  product: string;
  /** Monthly PDC for journey months 1–12; null when the month is not over yet. */
  monthlyPdc: (number | null)[];
  survival: SurvivalSubject;
};

/**
 * A cohort's 12-month journey: monthly PDC from each patient's first fill in the period, persistence on
 * treatment (Kaplan–Meier, a gap of more than 60 days ends it) by persona and product, and — for clinicians
 * and admins — individual trajectories. Patients, manufacturers and government officials get every group
 * through small-cell suppression.
 */
export async function getComplianceJourney(options: { database: Database; actor: SessionUser | null; now?: Date }): Promise<ComplianceJourney> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const suppressed = SUPPRESSED_ROLES.has(actor.role);
  const period = await findReportingPeriod({ database, now: options.now ?? new Date() });

  let organisationIds: string[] | null = null;
  if (actor.role === 'clinician') {
    organisationIds = (
      await database.select({ id: organisationMemberships.organisationId }).from(organisationMemberships).where(eq(organisationMemberships.userId, actor.id))
    ).map((row) => row.id);
  }
  // A clinician without organisations has an empty cohort (no query runs).
  const inScope = organisationIds === null || organisationIds.length === 0 ? undefined : inArray(patients.organisationId, organisationIds);

  const cohortRows =
    organisationIds !== null && organisationIds.length === 0
      ? []
      : await database
          .select({ id: patients.id, pseudonym: patients.pseudonym, synthetic: patients.synthetic, persona: patients.persona })
          .from(patients)
          .where(inScope)
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
          .where(and(inScope, gte(dispensings.dispensedOn, lookbackStart), lt(dispensings.dispensedOn, isoDay(period.end))));

  const fillsByPatient = new Map<string, typeof fillRows>();
  for (const fill of fillRows) {
    const own = fillsByPatient.get(fill.patientId);
    if (own === undefined) fillsByPatient.set(fill.patientId, [fill]);
    else own.push(fill);
  }

  const cohort: CohortPatient[] = [];
  for (const patient of cohortRows) {
    const fills = fillsByPatient.get(patient.id) ?? [];
    const events = medicationEventsFrom(fills, period.end);
    const index = events.find((event) => event.day >= period.start);
    if (index === undefined) continue; // no fill in the period: not on this journey
    const indexFill = fills.find((fill) => drugOf(fill) === index.medicationClass);
    cohort.push({
      pseudonym: patient.pseudonym,
      synthetic: patient.synthetic,
      persona: patient.persona,
      product: indexFill?.productName ?? indexFill?.medicationCode ?? 'Unknown medication',
      monthlyPdc: monthlyPdc(events, index.day, period.end),
      survival: persistence(events.filter((event) => event.day >= index.day), index.day, period.end),
    });
  }

  const pdcByMonth = Array.from({ length: JOURNEY_MONTHS }, (_, monthIndex) => summariseMonth(cohort, monthIndex, suppressed));
  const overall = curve('all', 'All patients', cohort, suppressed);
  const byPersona = groupCurves(cohort, (patient) => patient.persona ?? 'Not assigned', overall, suppressed);
  const byProduct = groupCurves(cohort, (patient) => patient.product, overall, suppressed);
  const syntheticCount = cohort.filter((patient) => patient.synthetic).length;

  const mayListPatients = actor.role === 'clinician' || actor.role === 'admin';
  return {
    scope: organisationIds === null ? 'all' : 'organisation',
    suppressed,
    period: { start: isoDay(period.start), end: isoDay(period.end - 1) },
    cohort: { patients: show(cohort.length, suppressed), synthetic: show(syntheticCount, suppressed) },
    pdcByMonth,
    persistence: { overall, byPersona, byProduct },
    trajectories: mayListPatients
      ? {
          total: cohort.length,
          shown: cohort.slice(0, TRAJECTORY_LIMIT).map((patient) => ({ pseudonym: patient.pseudonym, synthetic: patient.synthetic, persona: patient.persona, monthlyPdc: patient.monthlyPdc })),
        }
      : null,
  };
}

function show(count: number, suppressed: boolean): ShownCount {
  return suppressed ? suppressCount(count) : { count, suppressed: false, display: String(count), reason: null };
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

function summariseMonth(cohort: readonly CohortPatient[], monthIndex: number, suppressed: boolean): PdcMonth {
  const values = cohort.map((patient) => patient.monthlyPdc[monthIndex]).filter((value): value is number => value !== null && value !== undefined).sort((left, right) => left - right);
  const counts = [values.filter((value) => value < 0.5).length, values.filter((value) => value >= 0.5 && value < ADHERENT_PDC).length, values.filter((value) => value >= ADHERENT_PDC).length];
  const total = values.length;
  const groups = PDC_BANDS.map((band, index) => ({ key: band.key, count: counts[index]! }));
  const shown = suppressed ? suppressSmallCells({ groups, total }) : null;
  const adherent = counts[2]!;
  const hideAll = suppressed && isSmallCell(total);
  return {
    month: monthIndex + 1,
    patients: shown?.total ?? show(total, false),
    quartiles: total === 0 || hideAll ? null : { q1: quantile(values, 0.25), median: quantile(values, 0.5), q3: quantile(values, 0.75) },
    adherentShare:
      total === 0 || (suppressed && (!isShareShowable(adherent, total) || shown?.groups[2]?.suppressed === true || shown?.total?.suppressed === true)) ? null : adherent / total,
    bands: PDC_BANDS.map((band, index) => ({ key: band.key, label: band.label, patients: shown?.groups[index] ?? show(counts[index]!, false) })),
  };
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
function groupCurves(cohort: readonly CohortPatient[], groupOf: (patient: CohortPatient) => string, overall: PersistenceCurve, suppressed: boolean): PersistenceCurve[] {
  const members = new Map<string, CohortPatient[]>();
  for (const patient of cohort) {
    const key = groupOf(patient);
    const own = members.get(key);
    if (own === undefined) members.set(key, [patient]);
    else own.push(patient);
  }
  const keys = [...members.keys()].sort((left, right) => left.localeCompare(right));
  const curves = keys.map((key) => curve(key, key, members.get(key)!, false));
  if (!suppressed) return curves;

  const sizes = suppressSmallCells({ groups: curves.map((entry) => ({ key: entry.key, count: entry.patients.count ?? 0 })), total: cohort.length });
  // The cohort size is shown; had it needed hiding to protect the groups, the groups are not shown at all.
  if (sizes.total?.suppressed === true && !overall.patients.suppressed) return [];
  const atRiskByMonth = CURVE_DAYS.map((_, month) => {
    const shownTotal = overall.points[month]!.atRisk;
    const result = suppressSmallCells({ groups: curves.map((entry) => ({ key: entry.key, count: entry.points[month]!.atRisk.count ?? 0 })), total: shownTotal.count ?? undefined });
    // Same case month by month: then every group's number at risk, zeros too, reads "<11".
    const hideAll = result.total?.suppressed === true && !shownTotal.suppressed;
    return hideAll ? result.groups.map((group) => ({ ...group, ...suppressCount(1) })) : result.groups;
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
