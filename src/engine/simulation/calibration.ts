/**
 * The simulator's calibration against the literature (DESIGN.md §9; bands of issue 11): runs the same
 * synthetic cohort without messages and with fixed daily reminders for a year and checks each published
 * figure against its tolerance band, and that personas behave as described (no long lapse without a
 * reason). The tests assert it for two seeds; `npm run cli -- simulate --report` prints it.
 */
import type { CohortSummary } from './cohort-summary';
import { personaParameters, personas, type Persona } from './personas';
import { createFixedDailyPolicy } from './policies/fixed-daily-policy';
import { createNoMessagePolicy } from './policies/no-message-policy';
import { simulateCohort } from './simulate-cohort';

export type CalibrationCheck = {
  id: string;
  label: string;
  value: number;
  /** Inclusive bounds; null where the band is open on that side. */
  minimum: number | null;
  maximum: number | null;
  source: string;
  passed: boolean;
};

export type CalibrationReport = {
  patients: number;
  days: number;
  seed: number;
  checks: CalibrationCheck[];
  withoutMessages: CohortSummary;
  dailyReminders: CohortSummary;
};

export const calibrationDays = 365;

/** Odds ratio of being adherent (PDC ≥ 0.8) with versus without the intervention. */
export function oddsRatio(treatedShare: number, controlShare: number): number {
  const odds = (share: number) => share / (1 - share);
  return odds(treatedShare) / odds(controlShare);
}

/** Least-squares slope of a series against its index (per month for monthly figures). */
export function linearSlope(values: readonly number[]): number {
  const count = values.length;
  if (count < 2) return 0;
  const meanIndex = (count - 1) / 2;
  const meanValue = values.reduce((sum, value) => sum + value, 0) / count;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, index) => {
    covariance += (index - meanIndex) * (value - meanValue);
    variance += (index - meanIndex) ** 2;
  });
  return covariance / variance;
}

function check(id: string, label: string, value: number, minimum: number | null, maximum: number | null, source: string): CalibrationCheck {
  const passed = Number.isFinite(value) && (minimum === null || value >= minimum) && (maximum === null || value <= maximum);
  return { id, label, value, minimum, maximum, source, passed };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * The reminders' proximal effect: how much more often doses with supply at hand are taken, per week.
 * It is what HeartSteps measured (the effect of a prompt on the next hours), unlike PDC, whose gap
 * between the arms grows as reminders keep more patients on therapy.
 */
export function proximalEffectByWeek(withMessages: CohortSummary, withoutMessages: CohortSummary): number[] {
  return withMessages.availableDoseTakenShareByWeek.map(
    (share, week) => share - (withoutMessages.availableDoseTakenShareByWeek[week] ?? NaN),
  );
}

/**
 * Personas whose description gives no reason to stop taking their medicines: a long lapse needs a life
 * event to explain it (lapses.ts).
 */
export const personasWithoutOwnReasonToStop: readonly Persona[] = personas.filter(
  (persona) => personaParameters[persona].monthlyStopProbability === 0,
);

/** Share of these personas' patients with a lapse of 90 days or more that no life event explains. */
export function unexplainedLapseShare(summary: CohortSummary, group: readonly Persona[]): number {
  let patients = 0;
  let lapsed = 0;
  for (const persona of group) {
    const figures = summary.byPersona[persona];
    patients += figures.patients;
    lapsed += figures.unexplainedLongLapseShare * figures.patients;
  }
  return patients === 0 ? NaN : lapsed / patients;
}

/** Weeks compared: the first two, and the last quarter of the year (weeks 40–52, long habituated). */
export const earlyWeeks = [0, 2] as const;
export const lateWeeks = [39, 52] as const;

export function runCalibration(options: { patientCount: number; seed: number; startDay: number }): CalibrationReport {
  const base = { patientCount: options.patientCount, days: calibrationDays, seed: options.seed, startDay: options.startDay };
  const withoutMessages = simulateCohort({ ...base, policy: createNoMessagePolicy() });
  const dailyReminders = simulateCohort({ ...base, policy: createFixedDailyPolicy() });

  const proximal = proximalEffectByWeek(dailyReminders, withoutMessages);
  const earlyEffect = mean(proximal.slice(...earlyWeeks));
  const lateEffect = mean(proximal.slice(...lateWeeks));

  const checks: CalibrationCheck[] = [
    check('baseline-mean-pdc', 'Mean 12-month PDC, no messages', withoutMessages.meanPdc, 0.5, 0.62, 'Naderi 2012 (57%); WHO 2003'),
    check(
      'baseline-adherent',
      'Share at 12-month PDC ≥ 0.8, no messages',
      withoutMessages.shareAdherent,
      0.4,
      0.6,
      'Chowdhury 2013 (60%, 52–68); Taiwan statins (54%)',
    ),
    check(
      'baseline-persistence',
      'Persistence at 12 months per patient, no messages',
      withoutMessages.persistence,
      0.5,
      0.7,
      'Vrijens 2008 (about half stop within a year)',
    ),
    check(
      'baseline-monthly-trend',
      'Trend of monthly mean PDC, per month',
      linearSlope(withoutMessages.meanPdcByMonth),
      null,
      -0.001,
      'Naderi 2012 (declines over time)',
    ),
    check(
      'persona-consistency',
      'Unexplained lapse ≥ 90 days: self-managers, older adults',
      unexplainedLapseShare(withoutMessages, personasWithoutOwnReasonToStop),
      null,
      0.01,
      'Persona descriptions (no reason of their own to stop)',
    ),
    check(
      'reminders-odds-ratio',
      'Odds ratio of PDC ≥ 0.8, daily reminders vs none',
      oddsRatio(dailyReminders.shareAdherent, withoutMessages.shareAdherent),
      1.3,
      2.2,
      'Thakkar 2016 (OR 1.68–2.11)',
    ),
    check(
      'reminders-early-effect',
      'Reminder effect on doses taken, weeks 1–2',
      earlyEffect,
      0.005,
      null,
      'HeartSteps 2019 (strong early)',
    ),
    check(
      'reminders-effect-wanes',
      'Share of that effect left in weeks 40–52',
      lateEffect / earlyEffect,
      null,
      0.5,
      'HeartSteps 2019 (wanes over weeks)',
    ),
    check(
      'reminders-opt-out',
      'Share replying STOP within a year, daily reminders',
      dailyReminders.optOutRate,
      0.04,
      0.08,
      'Klimis 2021 (5.5%)',
    ),
  ];
  return { patients: options.patientCount, days: calibrationDays, seed: options.seed, checks, withoutMessages, dailyReminders };
}
