'use client';

import { useCallback, useMemo } from 'react';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount, formatDecimal, formatPercent } from '@/lib/format';
import { personaLabel } from '@/lib/domain/personas';
import { actionLabel, type LabPersonaArmShares, type LabSummary } from '../schemas';
import { armShareSeries, finalRegret, mostChosenArm } from './lab-figures';
import { LabCohortNote } from './lab-cohort-note';
import { TableScroll } from '@/lib/components/table-scroll';

/** Dark enough for 3:1 against the page (WCAG 1.4.11); no message in grey. */
const seriesColours = ['#52525b', '#1d4ed8', '#b45309', '#0f766e', '#7e22ce', '#be123c', '#4d7c0f', '#a1a1aa'];
const gridLineColour = '#e4e4e7';
const weekLabels = (weeks: number) => Array.from({ length: weeks }, (_, week) => String(week + 1));

function ArmShareChart({ shares }: { shares: LabPersonaArmShares }) {
  const series = useMemo(() => armShareSeries(shares), [shares]);
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { type: 'scroll', top: 0, textStyle: { color: theme.text } },
      tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatPercent(value, 1) : String(value)) },
      grid: { left: 48, right: 16, top: 56, bottom: 40 },
      xAxis: {
        type: 'category',
        name: 'Week',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        data: weekLabels(series[0]?.data.length ?? 0),
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: 1,
        axisLabel: { color: theme.text, formatter: (value: number) => formatPercent(value) },
        splitLine: { lineStyle: { color: gridLineColour } },
      },
      series: series.map((line, index) => ({
        type: 'line',
        name: line.name,
        stack: 'share',
        areaStyle: { opacity: 0.6 },
        symbol: 'none',
        color:
          index === series.length - 1 && line.action === null ? seriesColours.at(-1) : seriesColours[index % (seriesColours.length - 1)],
        lineStyle: { width: 1 },
        data: line.data,
      })),
    }),
    [series],
  );
  const first = mostChosenArm(shares, 0, 1);
  const last = mostChosenArm(shares, shares.sharesByWeek.length - 4, shares.sharesByWeek.length);
  const label =
    `Stacked area chart of the share of each week's decisions by action for ${personaLabel(shares.persona)} (${formatCount(shares.patients)} simulated patients): ` +
    `no message ${formatPercent(shares.sharesByWeek[0]?.[0] ?? 0)} in week 1 and ${formatPercent(shares.sharesByWeek.at(-1)?.[0] ?? 0)} in week ${shares.sharesByWeek.length}` +
    (first !== null && last !== null
      ? `; the most chosen arm was ${actionLabel(first.action)} in week 1 and ${actionLabel(last.action)} (${formatPercent(last.share)}) over the last 4 weeks.`
      : '.');
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full" />;
}

function RegretChart({ summary }: { summary: LabSummary }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { top: 0, textStyle: { color: theme.text } },
      tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatDecimal(value, 1) : String(value)) },
      grid: { left: 56, right: 16, top: 40, bottom: 40 },
      xAxis: {
        type: 'category',
        name: 'Week',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        data: weekLabels(summary.weeks),
      },
      yAxis: { type: 'value', axisLabel: { color: theme.text }, splitLine: { lineStyle: { color: gridLineColour } } },
      series: [
        {
          type: 'line',
          name: 'Against uniform random',
          data: summary.cumulativeRegret.vsUniformRandom,
          color: '#b45309',
          symbol: 'none',
          lineStyle: { width: 2 },
        },
        {
          type: 'line',
          name: 'Against the fixed daily reminder',
          data: summary.cumulativeRegret.vsFixedDaily,
          color: '#1d4ed8',
          symbol: 'none',
          lineStyle: { width: 2, type: 'dashed' },
        },
      ],
    }),
    [summary],
  );
  const regret = finalRegret(summary);
  const label = `Line chart of the personalised policy's cumulative regret by week (percentage points × weeks, simulated): after ${summary.weeks} weeks ${formatDecimal(regret.vsUniformRandom, 1)} against uniform random and ${formatDecimal(regret.vsFixedDaily, 1)} against the fixed daily reminder; below zero the personalised policy is ahead.`;
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full" />;
}

/** Said in words beside the chart, so the figure is there without the chart too. */
function regretSentence(value: number, baseline: string): string {
  if (Math.abs(value) < 0.05) return `level with ${baseline}`;
  return value < 0
    ? `ahead of ${baseline} by ${formatDecimal(-value, 1)} percentage-point-weeks of doses taken`
    : `behind ${baseline} by ${formatDecimal(value, 1)} percentage-point-weeks of doses taken`;
}

/** /algorithms/patient-engagement/learning-journey: how the personalised policy's choices changed as it learned. */
export function LearningJourneyView({ summary }: { summary: LabSummary }) {
  const regret = finalRegret(summary);
  const earlyWeeks = Math.min(12, summary.weeks);
  const withTruth = summary.armShares.some((shares) => shares.truthBestActions.length > 0);
  const matches = summary.armShares.filter((shares) => {
    const chosen = mostChosenArm(shares, earlyWeeks - 4, earlyWeeks);
    return chosen !== null && shares.truthBestActions.includes(chosen.action);
  }).length;
  const personalised = summary.outcomes.find((outcome) => outcome.policy === 'personalised');
  const daily = summary.outcomes.find((outcome) => outcome.policy === 'fixed-daily');
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  return (
    <div className="flex flex-col gap-8" data-testid="learning-journey">
      <LabCohortNote summary={summary} />
      {personalised === undefined || daily === undefined ? null : (
        <section aria-labelledby="targets-heading" className="flex flex-col gap-2" data-testid="policy-targets">
          <h2 id="targets-heading" className="text-xl font-semibold">
            The policy’s targets on this simulated cohort
          </h2>
          <ul className="max-w-3xl list-disc pl-6 text-sm">
            <li>
              At least the fixed daily reminder’s share of patients at PDC ≥ 0.8 with at most half its messages:{' '}
              <strong>
                {verdict(
                  personalised.shareAdherent >= daily.shareAdherent &&
                    personalised.messagesPerPatientPerWeek <= daily.messagesPerPatientPerWeek / 2,
                )}
              </strong>{' '}
              — {formatPercent(personalised.shareAdherent, 1)} against {formatPercent(daily.shareAdherent, 1)}, with{' '}
              {formatDecimal(personalised.messagesPerPatientPerWeek, 2)} against {formatDecimal(daily.messagesPerPatientPerWeek, 2)}{' '}
              messages per patient per week.
            </li>
            {withTruth ? (
              <li>
                The most-chosen arm in weeks {earlyWeeks - 3}–{earlyWeeks} is the simulator’s best for at least 5 of the{' '}
                {summary.armShares.length} personas: <strong>{verdict(matches >= 5)}</strong> — {matches} of {summary.armShares.length}.
                {matches >= 5
                  ? null
                  : ' Framings differ by about a tenth of a message’s effect, too little for 12 weeks of data to resolve, and much of what makes an arm best (education easing a sceptic’s concerns, support against stopping) acts after the day the reward is observed (decision 021). The simulator was not changed to suit the policy.'}
              </li>
            ) : null}
          </ul>
        </section>
      )}
      <section aria-labelledby="arm-share-heading" className="flex flex-col gap-4">
        <h2 id="arm-share-heading" className="text-xl font-semibold">
          What the policy chose, week by week, per persona
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          Each week’s decisions for the persona’s simulated patients (one a day per patient who has not opted out), by action: no message,
          the message arms that reached 5% of a week’s decisions, and all other arms together. Early on the policy explores; as its
          posterior narrows it settles on what works for the persona, within its limits on sending.
        </p>
        <div className="grid gap-6 lg:grid-cols-2">
          {summary.armShares.map((shares) => (
            <figure key={shares.persona} className="flex flex-col gap-2" data-testid={`arm-share-${shares.persona}`}>
              <figcaption className="font-medium">
                {personaLabel(shares.persona)} ({formatCount(shares.patients)} simulated patients) — share of decisions by week
              </figcaption>
              <ArmShareChart shares={shares} />
            </figure>
          ))}
        </div>
        <TableScroll label="Most chosen arm per persona">
          <table className="w-full text-left text-sm" data-testid="most-chosen-table">
            <caption className="pb-2 text-left text-sm text-muted">
              The message arm chosen most often in weeks {earlyWeeks - 3}–{earlyWeeks} and in the last 4 weeks
              {withTruth
                ? `, against the simulator’s best arm for the persona (its hidden truth, shown for evaluation only). Matches after ${earlyWeeks} weeks: ${matches} of ${summary.armShares.length} personas.`
                : '. The simulator does not report its best arm per persona yet, so no match with the truth is claimed here.'}
            </caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className="py-2 pr-4">
                  Persona
                </th>
                <th scope="col" className="py-2 pr-4">
                  Weeks {earlyWeeks - 3}–{earlyWeeks}
                </th>
                <th scope="col" className="py-2 pr-4">
                  Weeks {summary.weeks - 3}–{summary.weeks}
                </th>
                {withTruth ? (
                  <th scope="col" className="py-2">
                    Simulator’s best arm
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {summary.armShares.map((shares) => {
                const early = mostChosenArm(shares, earlyWeeks - 4, earlyWeeks);
                const late = mostChosenArm(shares, summary.weeks - 4, summary.weeks);
                return (
                  <tr key={shares.persona} className="border-b border-separator">
                    <th scope="row" className="py-2 pr-4 font-medium">
                      {personaLabel(shares.persona)}
                    </th>
                    <td className="py-2 pr-4">{early === null ? '—' : `${actionLabel(early.action)} (${formatPercent(early.share)})`}</td>
                    <td className="py-2 pr-4">{late === null ? '—' : `${actionLabel(late.action)} (${formatPercent(late.share)})`}</td>
                    {withTruth ? <td className="py-2">{shares.truthBestActions.map(actionLabel).join(', ') || '—'}</td> : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section aria-labelledby="regret-heading" className="flex flex-col gap-4">
        <h2 id="regret-heading" className="text-xl font-semibold">
          Cumulative regret against the baselines (simulated)
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          Regret needs the truth, which only the simulator knows: each week, the share of doses the simulated patients actually took (among
          doses due with medicine at hand) under a baseline minus that share under the personalised policy, in percentage points, summed
          over the weeks so far. Below zero the personalised policy is ahead. The baselines run on the same cohort and seed: uniform random
          (a message on half the days, at random, its arm any of the 20 with equal probability) and the fixed daily reminder (the same
          neutral reminder at 08:00 every day).
        </p>
        <figure className="flex flex-col gap-2">
          <figcaption className="font-medium">Cumulative regret by week, percentage points × weeks (simulated)</figcaption>
          <RegretChart summary={summary} />
        </figure>
        <p className="text-sm" data-testid="regret-summary">
          After {summary.weeks} weeks the personalised policy is {regretSentence(regret.vsUniformRandom, 'uniform random')} and{' '}
          {regretSentence(regret.vsFixedDaily, 'the fixed daily reminder')} ({formatCount(summary.patients)} simulated patients).
        </p>
      </section>
    </div>
  );
}
