import 'server-only';
import type { Database } from '@/db/client';
import { findCohortPatients, findCohortScope } from '@/db/queries/cohort-scope';
import { drugOf, loadCohortDispensings, medicationEventsFrom } from '@/db/queries/medication-events';
import {
  countCohortPatients,
  findReportingPeriod,
  lookbackStart,
  type PeriodChoice,
  type PeriodView,
  periodView,
} from '@/db/queries/reporting-period';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import {
  followJourney,
  type JourneyFigures,
  type JourneyLabels,
  type JourneyMember,
  sliceJourneyGroup,
  summariseJourney,
} from '@/engine/aggregation/compliance-journey';
import { personaLabel, personaNotAssigned } from '@/lib/domain/personas';
import { AppError } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { SessionUser } from '@/lib/server/session';
import type { JourneyFilters } from '../schemas';
import { suppressJourneyPage } from './suppress-journey-page';

export {
  ADHERENT_PDC,
  type GroupMonthlyPdc,
  type GroupPdcMonth,
  JOURNEY_MONTHS,
  MONTH_DAYS,
  type PdcMonth,
  type PdcQuartiles,
  type PersistenceCurve,
  type WithheldBreakdown,
} from '@/engine/aggregation/compliance-journey';

const TRAJECTORY_LIMIT = 25;

export type Trajectory = { pseudonym: string; synthetic: boolean; persona: string | null; monthlyPdc: (number | null)[] };

export type FilterOption = { value: string; label: string };
export type JourneyFilterOptions = { personas: FilterOption[]; products: FilterOption[] };

export type ComplianceJourney = JourneyFigures & {
  status: 'ok';
  scope: 'organisation' | 'companies' | 'all';
  /** For manufacturers: the companies whose products the cohort is drawn from. */
  companies: string[];
  suppressed: boolean;
  filters: JourneyFilters;
  options: JourneyFilterOptions;
  period: PeriodView;
  /**
   * Every patient of the cohort's scope, with or without a dispensing in the period (the journey's cohort is
   * those with one); null for a privacy role when those without one are a small group.
   */
  patientsInScope: number | null;
  /** Only for clinicians (their organisations) and admins; null for everyone else. */
  trajectories: { shown: Trajectory[]; total: number } | null;
};

export type ComplianceJourneyResult =
  | ComplianceJourney
  | { status: 'no-company' }
  | {
      status: 'invalid-filter';
      field: 'persona' | 'product';
      message: string;
      filters: JourneyFilters;
      options: JourneyFilterOptions;
      period: PeriodView;
    }
  | { status: 'filters-not-combined'; filters: JourneyFilters; options: JourneyFilterOptions; period: PeriodView };

type CohortPatient = JourneyMember & { pseudonym: string; persona: string | null; monthlyPdc: (number | null)[] };

/**
 * A cohort's 12-month journey: monthly PDC from each patient's first fill in the period, persistence on
 * treatment (Kaplan–Meier, a gap of more than 60 days ends it) by persona and product, and — for clinicians
 * and admins — individual trajectories; optionally for one persona and/or one product (the medicine of the
 * first fill). Who sees which patients is the shared read layer's rule (`findCohortScope`): manufacturers
 * only their companies' products. Patients, manufacturers and government officials get every group through small-cell
 * suppression; for them a filtered view shows only figures the whole cohort's page already shows for that
 * group (suppressed the same way), so that comparing pages cannot reveal a small group either.
 */
export async function getComplianceJourney(options: {
  database: Database;
  actor: SessionUser | null;
  filters?: JourneyFilters;
  choice?: PeriodChoice;
  now?: Date;
}): Promise<ComplianceJourneyResult> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const filters: JourneyFilters = options.filters ?? { persona: null, product: null };
  const suppressed = seesSuppressedAggregates(actor.role);
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });

  // Which patients (and, for manufacturers, which dispensings) the cohort is drawn from, with one earlier
  // year of fills so supply dispensed before the period carries into it.
  const [cohortRows, fillsByPatient, counts] = await Promise.all([
    findCohortPatients({ database, scope }),
    loadCohortDispensings({ database, scope, from: lookbackStart(period), to: period.end }),
    countCohortPatients({ database, scope, period, suppressed }),
  ]);

  const labels = { persona: new Map<string, string>(), product: new Map<string, string>() } satisfies JourneyLabels;
  const cohort: CohortPatient[] = [];
  for (const patient of cohortRows) {
    const fills = fillsByPatient.get(patient.id) ?? [];
    const journey = followJourney(medicationEventsFrom(fills, period.end), period);
    if (journey === null) continue; // no fill in the period: not on this journey
    const { index } = journey;
    const indexFill = fills.find((fill) => drugOf(fill) === index.medicationClass);
    const personaKey = patient.persona === null ? personaNotAssigned : filterKeyOf(patient.persona);
    const productKey = filterKeyOf(index.medicationClass);
    labels.persona.set(personaKey, personaLabel(patient.persona ?? personaNotAssigned));
    labels.product.set(productKey, indexFill?.productName ?? indexFill?.medicationCode ?? 'Unknown medication');
    cohort.push({
      pseudonym: patient.pseudonym,
      synthetic: patient.synthetic,
      personaKey,
      persona: patient.persona,
      productKey,
      monthlyPdc: journey.monthlyPdc,
      survival: journey.survival,
    });
  }

  const filterOptions: JourneyFilterOptions = { personas: optionsOf(labels.persona), products: optionsOf(labels.product) };
  if (filters.persona !== null && !labels.persona.has(filters.persona)) {
    return {
      status: 'invalid-filter',
      field: 'persona',
      message: `persona: “${filters.persona}” is not a persona of this cohort. Choose one from the list.`,
      filters,
      options: filterOptions,
      period: periodView(period),
    };
  }
  // The same words whether the product exists elsewhere or not: a manufacturer learns nothing of other companies' products.
  if (filters.product !== null && !labels.product.has(filters.product)) {
    return {
      status: 'invalid-filter',
      field: 'product',
      message: `product: “${filters.product}” is not one of the products you can view. Choose one from the list.`,
      filters,
      options: filterOptions,
      period: periodView(period),
    };
  }

  let figures: JourneyFigures;
  let members = cohort;
  if (!suppressed) {
    members = cohort.filter(
      (patient) =>
        (filters.persona === null || patient.personaKey === filters.persona) &&
        (filters.product === null || patient.productKey === filters.product),
    );
    figures = summariseJourney(members, labels, false);
  } else if (filters.persona !== null && filters.product !== null) {
    // Persona × product cells would need suppression across both groupings and every month at once.
    return { status: 'filters-not-combined', filters, options: filterOptions, period: periodView(period) };
  } else {
    // Suppressed as one page: a group hidden in one table must not be derivable from another (issue 10 item 6).
    const whole = suppressJourneyPage(summariseJourney(cohort, labels, false));
    if (filters.persona !== null)
      figures = sliceJourneyGroup(
        whole,
        'persona',
        filters.persona,
        labels,
        cohort.some((patient) => patient.synthetic && patient.personaKey === filters.persona),
      );
    else if (filters.product !== null)
      figures = sliceJourneyGroup(
        whole,
        'product',
        filters.product,
        labels,
        cohort.some((patient) => patient.synthetic && patient.productKey === filters.product),
      );
    else figures = whole;
  }

  const mayListPatients = hasPermission(actor.role, 'patients:list');
  return {
    status: 'ok',
    scope: scope.kind,
    companies: scope.kind === 'companies' ? scope.companies.map((company) => company.name) : [],
    suppressed,
    filters,
    options: filterOptions,
    period: periodView(period),
    patientsInScope: counts.patients,
    ...figures,
    trajectories: mayListPatients
      ? {
          total: members.length,
          shown: members.slice(0, TRAJECTORY_LIMIT).map((patient) => ({
            pseudonym: patient.pseudonym,
            synthetic: patient.synthetic,
            persona: patient.persona,
            monthlyPdc: patient.monthlyPdc,
          })),
        }
      : null,
  };
}

/** A key usable in the address (schemas.ts accepts letters, digits, ".", "_", ":" and "-"). */
function filterKeyOf(value: string): string {
  const key = value.replace(/[^A-Za-z0-9._:-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return key === '' ? 'unknown' : key;
}

function optionsOf(labels: ReadonlyMap<string, string>): FilterOption[] {
  return [...labels]
    .map(([value, label]) => ({ value, label }))
    .sort((left, right) => left.label.localeCompare(right.label) || left.value.localeCompare(right.value));
}
