/**
 * The simulator's calibration against the literature (DESIGN.md §9): runs the same synthetic cohort
 * without messages and with fixed daily reminders for a year and checks each published figure against
 * its tolerance band. The tests assert it; `npm run cli -- simulate --report` prints it.
 */
import type { CohortSummary } from './cohort-summary';
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

/** Weeks compared: the first two, and the last quarter of the year (weeks 40–52, long habituated). */
export const earlyWeeks = [0, 2] as const;
export const lateWeeks = [39, 52] as const;

export function runCalibration(options: { patientCount: number; seed: number; startDay: number }): CalibrationReport {
  const base = { patientCount: options.patientCount, days: calibrationDays, seed: options.seed, startDay: options.startDay };
  const withoutMessages = simulateCohort({ ...base, policy: createNoMessagePolicy() });
  const dailyReminders = simulateCohort({ ...base, policy: createFixedDailyPolicy() });

  const monthThree = withoutMessages.shareAdherentByMonth[2] ?? NaN;
  const monthTwelve = withoutMessages.shareAdherentByMonth[11] ?? NaN;
  const proximal = proximalEffectByWeek(dailyReminders, withoutMessages);
  const earlyEffect = mean(proximal.slice(...earlyWeeks));
  const lateEffect = mean(proximal.slice(...lateWeeks));

  const checks: CalibrationCheck[] = [
    check('baseline-mean-pdc', 'Mean 12-month PDC, no messages', withoutMessages.meanPdc, 0.5, 0.62, 'Naderi 2012 (57%); WHO 2003'),
    check('baseline-adherent-month-3', 'Share at PDC ≥ 0.8 in month 3, no messages', monthThree, 0.55, 0.65, 'Chowdhury 2013 (60%)'),
    check(
      'baseline-adherent-month-12',
      'Share at PDC ≥ 0.8 in month 12 (below month 3)',
      monthTwelve,
      null,
      monthThree - 0.01,
      'Naderi 2012; Chowdhury 2013',
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
