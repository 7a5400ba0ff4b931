import 'server-only';
import type { Database } from '@/db/client';
import { type CohortScope, findCohortPatients, findCohortScope } from '@/db/queries/cohort-scope';
import { loadCohortDispensings, medicationEventsFrom } from '@/db/queries/medication-events';
import {
  countCohortPatients,
  findReportingPeriod,
  lookbackStart,
  type PeriodChoice,
  type PeriodView,
  periodView,
} from '@/db/queries/reporting-period';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { ADHERENT_PDC } from '@/engine/aggregation/compliance-journey';
import { periodPdc } from '@/engine/aggregation/patient-summary';
import { suppressCount } from '@/engine/aggregation/small-cell-suppression';
import type { SessionUser } from '@/lib/server/session';

export type HeadlineFigures = {
  /** Patients with a dispensing in the reporting period (the compliance journey's cohort). */
  patientsMonitored: number;
  /**
   * Every patient of the viewer's cohort, with or without a dispensing in the period; null for a privacy role
   * when the patients without one would be a small group (the difference would reveal it).
   */
  patientsInCohort: number | null;
  /** Mean of the patients' PDC as their profiles show it: over the period, or from the first fill inside it (PQA). */
  meanPdc: number;
  /** Share of those patients whose PDC is at least 0.8 (the usual threshold for "adherent"). */
  shareAdherent: number;
  period: PeriodView;
  /** Whose patients: everyone's (visitors, officials, admins), an organisation's, or a manufacturer's products'. */
  scope: CohortScope['kind'];
  /** A manufacturer's companies the figures cover (their selection, else all of theirs); empty for other scopes. */
  companyNames: string[];
  /** True when every patient counted is simulator output. */
  synthetic: boolean;
} | null;

/**
 * The home page's live figures for the viewer's cohort (a visitor: every patient), computed from the
 * dispensings on record with the shared read layer's period, look-back, counting and suppression rule — the
 * same as the compliance journey's and the data sources page's for the same viewer and period choice; null
 * when there are no patients or too few to show.
 */
export async function getHeadlineFigures(options: {
  database: Database;
  actor?: SessionUser | null;
  choice?: PeriodChoice;
  now?: Date;
}): Promise<HeadlineFigures> {
  const { database } = options;
  const actor = options.actor ?? null;
  const scope: CohortScope = actor === null ? { kind: 'all' } : await findCohortScope({ database, actor });
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });
  const suppressed = seesSuppressedAggregates(actor?.role ?? null);
  const [cohort, fillsByPatient, counts] = await Promise.all([
    findCohortPatients({ database, scope }),
    loadCohortDispensings({ database, scope, from: lookbackStart(period), to: period.end }),
    countCohortPatients({ database, scope, period, suppressed }),
  ]);

  const pdcs: number[] = [];
  let allSynthetic = true;
  for (const patient of cohort) {
    const events = medicationEventsFrom(fillsByPatient.get(patient.id) ?? [], period.end);
    if (!events.some((event) => event.day >= period.start)) continue; // no fill in the period: not monitored
    const pdc = periodPdc(events, period);
    if (pdc === null) continue;
    pdcs.push(pdc.value);
    allSynthetic &&= patient.synthetic;
  }
  // The home page is public: a visitor's aggregates are always suppressed, and so are those of a privacy role.
  if (pdcs.length === 0 || (suppressed && suppressCount(pdcs.length).suppressed)) return null;
  return {
    patientsMonitored: pdcs.length,
    patientsInCohort: counts.patients,
    meanPdc: pdcs.reduce((sum, value) => sum + value, 0) / pdcs.length,
    shareAdherent: pdcs.filter((value) => value >= ADHERENT_PDC).length / pdcs.length,
    period: periodView(period),
    scope: scope.kind,
    companyNames: scope.kind === 'companies' ? scope.companies.map((company) => company.name) : [],
    synthetic: allSynthetic,
  };
}
