import 'server-only';
/**
 * The trial's results (issue 14 item 4), intention to treat: while the trial runs, accrual and figures
 * pooled over both arms only (the arms stay concealed); once it is complete, the comparisons of the
 * analysis plan (analyseTrialOutcomes, the same function `trial analyse` runs), the baseline table, weekly
 * adherence and the secondary endpoints by arm (docs/decisions/029-trial-endpoints.md).
 */
import type { Database } from '@/db/client';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { suppressSmallCells } from '@/engine/aggregation/small-cell-suppression';
import { analyseTrialOutcomes, meanInterval, newcombeDifference, welchTest, wilsonInterval } from '@/engine/statistics/trial';
import { AppError } from '@/lib/errors';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import { type TrialAnalysisRow, trialOutcomeRows } from '../analysis-dataset';
import {
  type BaselineRow,
  type SecondaryEndpointResult,
  type TrialArm,
  type TrialResults,
  trialArms,
  type WeeklyArmAdherence,
} from '../contracts';
import { buildTrialAnalysisDataset, type TrialAnalysisDataset } from './build-trial-analysis-dataset';

const decimals = (value: number, places = 3) => value.toFixed(places);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const points = (difference: number) => `${difference >= 0 ? '+' : '−'}${Math.abs(difference * 100).toFixed(1)}`;

function byArm<Value>(make: (arm: TrialArm) => Value): Record<TrialArm, Value> {
  return { control: make('control'), intervention: make('intervention') };
}

function blindedResults(dataset: TrialAnalysisDataset): TrialResults {
  const { rows, trial } = dataset;
  const start = dayNumberFromIso(trial.startDate);
  const today = dayNumberFromIso(dataset.asOf);
  const enrolled = rows.map((row) => dayNumberFromIso(row.enrolledOn)).sort((left, right) => left - right);
  const accrual: { weekStarting: string; cumulative: number }[] = [];
  let index = 0;
  for (let weekStart = start; weekStart <= today; weekStart += 7) {
    while (index < enrolled.length && enrolled[index]! < weekStart + 7) index += 1;
    accrual.push({ weekStarting: isoFromDayNumber(weekStart), cumulative: index });
  }
  // Pooled over both arms: the dose-weighted mean would favour patients with more doses, so each participant counts once.
  const outcomes = rows.flatMap((row) => (row.outcome === null ? [] : [row.outcome]));
  const reached = rows.filter((row) => row.weeksReached > 0);
  const from = enrolled[0] ?? start;
  const to = reached.length === 0 ? from : Math.max(...reached.map((row) => dayNumberFromIso(row.enrolledOn) + 7 * row.weeksReached - 1));
  return {
    state: 'blinded',
    accrual,
    pooled: {
      participants: rows.length,
      meanAdherence: outcomes.length === 0 ? null : outcomes.reduce((sum, value) => sum + value, 0) / outcomes.length,
      period: { from: isoFromDayNumber(from), to: isoFromDayNumber(to) },
    },
  };
}

function meanSd(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  if (values.length < 2) return `${decimals(mean, 2)} (n = 1)`;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return `${decimals(mean, 2)} (${decimals(Math.sqrt(variance), 2)})`;
}

/** Categories of one characteristic by arm, "n (x%)", small cells hidden for viewers who see suppressed aggregates. */
function categoryRows(
  rows: readonly TrialAnalysisRow[],
  label: string,
  categoryOf: (row: TrialAnalysisRow) => string | null,
  suppressed: boolean,
): BaselineRow[] {
  const categories = [...new Set(rows.map((row) => categoryOf(row) ?? 'not recorded'))].sort();
  const cells = byArm((arm) => {
    const own = rows.filter((row) => row.arm === arm);
    const groups = categories.map((key) => ({ key, count: own.filter((row) => (categoryOf(row) ?? 'not recorded') === key).length }));
    const shown = suppressed
      ? suppressSmallCells({ groups, total: own.length }).groups
      : groups.map((group) => ({ key: group.key, count: group.count, display: String(group.count) }));
    return new Map(
      shown.map((group) => [
        group.key,
        group.count === null ? group.display : `${group.count} (${own.length === 0 ? '0.0%' : percent(group.count / own.length)})`,
      ]),
    );
  });
  return categories.map((category) => ({
    label: `${label}: ${category}`,
    values: byArm((arm) => cells[arm].get(category) ?? '0'),
  }));
}

function baselineTable(rows: readonly TrialAnalysisRow[], suppressed: boolean): BaselineRow[] {
  const ofArm = (arm: TrialArm) => rows.filter((row) => row.arm === arm);
  return [
    { label: 'Participants randomised', values: byArm((arm) => String(ofArm(arm).length)) },
    ...categoryRows(rows, 'Age', (row) => row.ageBand, suppressed),
    ...categoryRows(rows, 'Sex', (row) => row.sex, suppressed),
    ...categoryRows(rows, 'Persona stratum', (row) => row.stratum, suppressed),
    { label: 'Conditions recorded, mean (SD)', values: byArm((arm) => meanSd(ofArm(arm).map((row) => row.conditionsCount))) },
    {
      label: 'Baseline adherence (12 weeks before enrolment), mean (SD)',
      values: byArm((arm) => {
        const observed = ofArm(arm).flatMap((row) => (row.baseline === null ? [] : [row.baseline]));
        const missing = ofArm(arm).length - observed.length;
        return `${meanSd(observed)}${missing > 0 ? `; ${missing} without a baseline` : ''}`;
      }),
    },
  ];
}

function weeklyByArm(rows: readonly TrialAnalysisRow[], weeks: number): WeeklyArmAdherence[] {
  const weekly: WeeklyArmAdherence[] = [];
  for (let week = 1; week <= weeks; week += 1) {
    for (const arm of trialArms) {
      const values = rows.flatMap((row) => {
        const value = row.arm === arm ? row.weekly[week - 1] : null;
        return value === null || value === undefined ? [] : [value];
      });
      if (values.length === 0) continue;
      const interval = meanInterval(values);
      weekly.push({ week, arm, participants: interval.n, mean: interval.mean, ciLow: interval.ciLow, ciHigh: interval.ciHigh });
    }
  }
  return weekly;
}

function shareWithInterval(x: number, n: number): string {
  if (n === 0) return 'no participants';
  const [low, high] = wilsonInterval(x, n);
  return `${x} of ${n}, ${percent(x / n)} (95% CI ${percent(low)} to ${percent(high)})`;
}

function difference(interval: { estimate: number; ciLow: number; ciHigh: number }, unit: 'points' | 'value'): string {
  const show = unit === 'points' ? points : (value: number) => `${value >= 0 ? '+' : '−'}${decimals(Math.abs(value))}`;
  return `${show(interval.estimate)}${unit === 'points' ? ' percentage points' : ''} (95% CI ${show(interval.ciLow)} to ${show(interval.ciHigh)})`;
}

/** Smallest day by which at least half had a gap (Kaplan–Meier median: no one is censored before day 84). */
function medianDaysToGap(rows: readonly TrialAnalysisRow[]): string {
  const days = rows.map((row) => row.daysToFirstGap ?? Infinity).sort((left, right) => left - right);
  const median = days[Math.ceil(days.length / 2) - 1];
  return median === undefined || median === Infinity ? 'median not reached' : `median ${median} days`;
}

function secondaryEndpoints(rows: readonly TrialAnalysisRow[], analysed: readonly TrialAnalysisRow[]): SecondaryEndpointResult[] {
  const ofArm = (list: readonly TrialAnalysisRow[], arm: TrialArm) => list.filter((row) => row.arm === arm);
  const counts = (list: readonly TrialAnalysisRow[], event: (row: TrialAnalysisRow) => boolean) => ({
    x1: ofArm(list, 'intervention').filter(event).length,
    n1: ofArm(list, 'intervention').length,
    x2: ofArm(list, 'control').filter(event).length,
    n2: ofArm(list, 'control').length,
  });
  const bothArms = (two: { n1: number; n2: number }) => two.n1 > 0 && two.n2 > 0;

  const adherent = counts(analysed, (row) => row.adherent === 1);
  const pdc = byArm((arm) => rows.flatMap((row) => (row.arm === arm && row.refillPdc !== null ? [row.refillPdc] : [])));
  const pdcWelch = pdc.control.length >= 2 && pdc.intervention.length >= 2 ? welchTest(pdc) : null;
  const gap = counts(rows, (row) => row.daysToFirstGap !== null);
  const replies = byArm((arm) => {
    const own = ofArm(rows, arm);
    return { replies: own.reduce((sum, row) => sum + row.replies, 0), messages: own.reduce((sum, row) => sum + row.messages, 0) };
  });

  return [
    {
      name: 'Adherent (dose-level adherence ≥ 0.8)',
      values: byArm((arm) =>
        shareWithInterval(arm === 'intervention' ? adherent.x1 : adherent.x2, arm === 'intervention' ? adherent.n1 : adherent.n2),
      ),
      difference: bothArms(adherent) ? difference(newcombeDifference(adherent), 'points') : null,
      definition:
        'Share of analysed participants whose confirmed ÷ scheduled doses over weeks 1–12 is at least 0.8; Wilson 95% CIs, difference intervention − control with the Newcombe hybrid score CI.',
    },
    {
      name: 'Refill-based PDC',
      values: byArm((arm) => {
        if (pdc[arm].length === 0) return 'no fills recorded';
        const interval = meanInterval(pdc[arm]);
        return `mean ${decimals(interval.mean)} (95% CI ${decimals(interval.ciLow)} to ${decimals(interval.ciHigh)}), n = ${interval.n}`;
      }),
      difference: pdcWelch === null ? null : `${difference(pdcWelch, 'value')}, Welch p = ${pdcWelch.p.toPrecision(2)}`,
      definition:
        'Proportion of days covered by dispensed supply (PQA rules, shared with the patient profile) over weeks 1–12, participants with a fill; difference in means by Welch’s t.',
    },
    {
      name: 'Time to the first 7-day gap',
      values: byArm((arm) => {
        const own = ofArm(rows, arm);
        const x = own.filter((row) => row.daysToFirstGap !== null).length;
        return `${shareWithInterval(x, own.length)} had a gap by day 84; ${medianDaysToGap(own)}`;
      }),
      difference: bothArms(gap) ? difference(newcombeDifference(gap), 'points') : null,
      definition:
        'Days from enrolment to the end of the first 7 consecutive days without a confirmed-taken dose, censored at day 84. Shown as the share with a gap (Wilson 95% CI; difference by Newcombe) and the Kaplan–Meier median, which equals the plain median here as no one is censored before day 84.',
    },
    {
      name: 'Reply rate',
      values: byArm((arm) =>
        replies[arm].messages === 0
          ? `${replies[arm].replies} replies, no messages sent`
          : `${decimals(replies[arm].replies / replies[arm].messages, 2)} replies per message (${replies[arm].replies} to ${replies[arm].messages})`,
      ),
      difference: null,
      definition:
        'Inbound replies ÷ outbound messages in weeks 1–12, all randomised participants of the arm pooled (a WhatsApp message and its SMS fallback count once). Replies may outnumber messages, so no interval for a proportion applies.',
    },
  ];
}

function unblindedResults(dataset: TrialAnalysisDataset, suppressed: boolean): TrialResults {
  const { rows, trial } = dataset;
  const primary = trialOutcomeRows(rows);
  let analysis;
  try {
    analysis = analyseTrialOutcomes(primary.rows);
  } catch (error) {
    if (error instanceof RangeError)
      throw new AppError('conflict', `The trial's outcomes cannot be compared yet: ${error.message}.`, { cause: error });
    throw error;
  }
  const enrolled = rows.map((row) => dayNumberFromIso(row.enrolledOn));
  const from = Math.min(...enrolled);
  const to = Math.max(...enrolled) + 7 * trial.weeks - 1;
  const notes = [
    primary.withoutOutcome > 0
      ? `${primary.withoutOutcome} with no dose scheduled in follow-up have no outcome and are not analysed`
      : null,
    primary.baselineImputed > 0
      ? `${primary.baselineImputed} without a baseline are given the mean baseline (${decimals(primary.imputedBaseline ?? 0)}) in the ANCOVA`
      : null,
  ].filter((note) => note !== null);
  return {
    state: 'unblinded',
    period: { from: isoFromDayNumber(from), to: isoFromDayNumber(to) },
    population: `Weeks 1–${trial.weeks} of each participant's follow-up; all ${rows.length} randomised, intention to treat (analysed in the arm allocated, a dose without a confirmation counted as not taken)${notes.length > 0 ? `; ${notes.join('; ')}` : ''}.`,
    analysis,
    baseline: baselineTable(rows, suppressed),
    weekly: weeklyByArm(rows, trial.weeks),
    secondary: secondaryEndpoints(
      rows,
      rows.filter((row) => row.outcome !== null),
    ),
  };
}

export async function getTrialResults(options: {
  database: Database;
  trialId: string;
  viewer: Pick<SessionUser, 'id' | 'role'> | null;
  now: Date;
}): Promise<TrialResults> {
  // Every signed-in role sees the results: aggregates only, small cells hidden where the role requires it.
  const viewer = requireActor(options.viewer);
  const dataset = await buildTrialAnalysisDataset({ database: options.database, trialId: options.trialId, now: options.now });
  // Nothing to unblind in a trial closed before anyone enrolled: its accrual says so.
  if (dataset.trial.status !== 'complete' || dataset.rows.length === 0) return blindedResults(dataset);
  return unblindedResults(dataset, seesSuppressedAggregates(viewer.role));
}
