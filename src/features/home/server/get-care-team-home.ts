import 'server-only';
import type { Database } from '@/db/client';
import { type CohortScope, findCohortPatients, findCohortScope } from '@/db/queries/cohort-scope';
import { drugOf, loadCohortDispensings, medicationEventsFrom } from '@/db/queries/medication-events';
import { findReportingPeriod, lookbackStart, type PeriodChoice, type PeriodView, periodView } from '@/db/queries/reporting-period';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { recentSupplyLapses } from '@/engine/aggregation/patient-summary';
import { AppError } from '@/lib/errors';
import { requirePermission } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';

/** "Lapsed this week": supply ran out in the last 7 days of the period and is still out at its end. */
export const LAPSE_WINDOW_DAYS = 7;

export type LapsedPatient = {
  patientId: string;
  pseudonym: string;
  /** The medicines that ran out, by product name (else the code the source gave). */
  medicines: string[];
  /** ISO date: the first day without supply (the earliest of the medicines). */
  since: string;
};

export type CareTeamHome = {
  period: PeriodView;
  /** The first ISO day of the lapse window (the last 7 days of the period, its end included). */
  lapseWindowStart: string;
  /** Patients of the viewer's organisations who lapsed in the window, longest first. */
  lapsed: LapsedPatient[];
  /** False when the clinician belongs to no organisation (nothing to show, and why). */
  hasOrganisation: boolean;
};

/**
 * The care team's home: which of their organisations' patients ran out of a medicine in the last week of the
 * reporting period and have not refilled — from the dispensings on record, with the shared read layer's
 * scope and period and the engine's gap model (the same gaps the patient profile draws).
 */
export async function getCareTeamHome(options: {
  database: Database;
  actor: SessionUser | null;
  choice?: PeriodChoice;
  now?: Date;
}): Promise<CareTeamHome> {
  const { database } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'patients:list',
    message: 'Only care teams and administrators see patients by name.',
  });
  if (actor.role !== 'clinician') throw new AppError('forbidden', 'The care team home is for clinicians.');
  const scope: CohortScope = await findCohortScope({ database, actor });
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });
  const windowStart = period.end - LAPSE_WINDOW_DAYS;
  const base = { period: periodView(period), lapseWindowStart: isoFromDayNumber(windowStart) };
  if (scope.kind !== 'organisation' || scope.organisationIds.length === 0) return { ...base, lapsed: [], hasOrganisation: false };

  const [cohort, fillsByPatient] = await Promise.all([
    findCohortPatients({ database, scope }),
    loadCohortDispensings({ database, scope, from: lookbackStart(period), to: period.end }),
  ]);
  const lapsed: LapsedPatient[] = [];
  for (const patient of cohort) {
    const fills = fillsByPatient.get(patient.id) ?? [];
    const lapses = recentSupplyLapses(medicationEventsFrom(fills, period.end), period, LAPSE_WINDOW_DAYS);
    if (lapses.length === 0) continue;
    const names = new Map(fills.map((fill) => [drugOf(fill), fill.productName ?? drugOf(fill)]));
    lapsed.push({
      patientId: patient.id,
      pseudonym: patient.pseudonym,
      medicines: [...new Set(lapses.map((lapse) => names.get(lapse.medicationClass) ?? lapse.medicationClass))].sort(),
      since: isoFromDayNumber(Math.min(...lapses.map((lapse) => lapse.start))),
    });
  }
  lapsed.sort((left, right) => left.since.localeCompare(right.since) || left.pseudonym.localeCompare(right.pseudonym));
  return { ...base, lapsed, hasOrganisation: true };
}
