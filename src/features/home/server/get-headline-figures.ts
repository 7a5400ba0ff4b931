import 'server-only';
import type { Database } from '@/db/client';
import { findCohortPatients } from '@/db/queries/cohort-scope';
import { loadCohortDispensings, medicationEventsFrom } from '@/db/queries/medication-events';
import { findReportingPeriod, lookbackStart, PERIOD_DAYS } from '@/db/queries/reporting-period';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { periodPdc } from '@/engine/aggregation/patient-summary';
import { suppressCount } from '@/engine/aggregation/small-cell-suppression';

export type HeadlineFigures = {
  /** Patients with a dispensing in the reporting period (the compliance journey's cohort for everyone). */
  patientsMonitored: number;
  /** Mean of the patients' PDC as their profiles show it: over the period, or from the first fill inside it (PQA). */
  meanPdc: number;
  periodStart: string;
  periodEnd: string;
  periodDays: number;
  /** True when every patient counted is simulator output. */
  synthetic: boolean;
} | null;

/**
 * The home page's live figures, computed from the dispensings on record with the shared read layer's
 * period, look-back and suppression rule (the same as the compliance journey's); null when there are no
 * patients or too few to show to a visitor.
 */
export async function getHeadlineFigures(options: { database: Database; now?: Date }): Promise<HeadlineFigures> {
  const { database } = options;
  const scope = { kind: 'all' } as const;
  const period = await findReportingPeriod({ database, now: options.now ?? new Date() });
  const [cohort, fillsByPatient] = await Promise.all([
    findCohortPatients({ database, scope }),
    loadCohortDispensings({ database, scope, from: lookbackStart(period), to: period.end }),
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
  // The home page is public: a visitor's aggregates are always suppressed.
  if (pdcs.length === 0 || (seesSuppressedAggregates(null) && suppressCount(pdcs.length).suppressed)) return null;
  return {
    patientsMonitored: pdcs.length,
    meanPdc: pdcs.reduce((sum, value) => sum + value, 0) / pdcs.length,
    periodStart: isoFromDayNumber(period.start),
    periodEnd: isoFromDayNumber(period.end - 1),
    periodDays: PERIOD_DAYS,
    synthetic: allSynthetic,
  };
}
