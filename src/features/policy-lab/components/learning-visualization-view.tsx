'use client';

import { Label, Slider, Tabs } from '@heroui/react';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import type { Persona } from '@/engine/simulation/personas';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount, formatDecimal } from '@/lib/format';
import { personaLabel } from '@/lib/domain/personas';
import { actionLabel, type LabPosteriorSeries, type LabSummary } from '../schemas';
import { LabCohortNote } from './lab-cohort-note';
import { TableScroll } from '@/lib/components/table-scroll';

const gridLineColour = '#e4e4e7';

const weekName = (week: number) => (week === 0 ? 'the prior (before any data)' : `the end of week ${week}`);

function PosteriorChart({ series, week, persona }: { series: LabPosteriorSeries[]; week: number; persona: Persona }) {
  // Boxplot boxes as intervals: the box spans the 95% credible interval, the line inside it is the mean.
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      tooltip: { trigger: 'item' },
      grid: { left: 150, right: 24, top: 16, bottom: 48 },
      xAxis: {
        type: 'value',
        name: 'Advantage over no message (share of doses confirmed)',
        nameLocation: 'middle',
        nameGap: 30,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        splitLine: { lineStyle: { color: gridLineColour } },
      },
      yAxis: { type: 'category', inverse: true, axisLabel: { color: theme.text }, data: series.map((entry) => actionLabel(entry.action)) },
      series: [
        {
          type: 'boxplot',
          name: '95% credible interval and mean',
          itemStyle: { color: '#bfdbfe', borderColor: '#1d4ed8' },
          data: series.map((entry) => {
            const lower = entry.lower[week] ?? 0;
            const mean = entry.mean[week] ?? 0;
            const upper = entry.upper[week] ?? 0;
            return [lower, lower, mean, upper, upper];
          }),
          markLine: { silent: true, symbol: 'none', lineStyle: { color: theme.text, type: 'dashed' }, data: [{ xAxis: 0 }] },
        },
      ],
    }),
    [series, week],
  );
  const best = series.reduce<LabPosteriorSeries | null>(
    (top, entry) => (top === null || (entry.mean[week] ?? 0) > (top.mean[week] ?? 0) ? entry : top),
    null,
  );
  const label = `Interval chart of each message arm's advantage over no message for ${personaLabel(persona)} at ${weekName(week)}: the highest mean is ${
    best === null ? 'none' : `${actionLabel(best.action)} at ${formatDecimal(best.mean[week] ?? 0, 3)}`
  }. The table below gives every arm's mean and 95% credible interval.`;
  return <EChart buildOption={buildOption} label={label} className="h-[36rem] w-full" />;
}

function PosteriorTable({ series, week, persona }: { series: LabPosteriorSeries[]; week: number; persona: Persona }) {
  return (
    <TableScroll label={`Posterior table, ${personaLabel(persona)}`}>
      <table className="w-full text-left text-sm" data-testid={`posterior-table-${persona}`}>
        <caption className="pb-2 text-left text-sm text-muted">
          {personaLabel(persona)} at {weekName(week)}: each arm’s advantage over no message (change in the share of the day’s doses taken),
          mean and 95% credible interval, and the decisions behind it (simulated).
        </caption>
        <thead>
          <tr className="border-b border-separator">
            <th scope="col" className="py-2 pr-4">
              Arm
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Mean
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              95% credible interval
            </th>
            <th scope="col" className="py-2 text-right">
              Observations
            </th>
          </tr>
        </thead>
        <tbody>
          {series.map((entry) => (
            <tr key={entry.action} className="border-b border-separator">
              <th scope="row" className="py-2 pr-4 font-medium">
                {actionLabel(entry.action)}
              </th>
              <td className="py-2 pr-4 text-right tabular-nums">{formatDecimal(entry.mean[week] ?? 0, 3)}</td>
              <td className="py-2 pr-4 text-right tabular-nums">
                {formatDecimal(entry.lower[week] ?? 0, 3)} to {formatDecimal(entry.upper[week] ?? 0, 3)}
              </td>
              <td className="py-2 text-right tabular-nums">{formatCount(entry.observations[week] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** /algorithms/patient-engagement/learning-visualization: the policy's beliefs, explorable week by week. */
export function LearningVisualizationView({ summary, livePolicy }: { summary: LabSummary; livePolicy: ReactNode }) {
  const [week, setWeek] = useState(summary.weeks);
  const personas = useMemo(() => [...new Set(summary.posterior.map((entry) => entry.persona))], [summary]);
  const byPersona = useMemo(
    () => new Map(personas.map((persona) => [persona, summary.posterior.filter((entry) => entry.persona === persona)])),
    [personas, summary],
  );
  return (
    <div className="flex flex-col gap-6" data-testid="learning-visualization">
      <LabCohortNote summary={summary} />
      <p className="max-w-3xl text-sm text-muted">
        The personalised policy models each message arm’s advantage over sending nothing, per persona, as a Bayesian posterior: its best
        estimate (the mean) and how sure it is (the 95% credible interval). Move the slider to see how the beliefs narrowed as the simulated
        decisions came in; an interval that stays wide is an arm the policy rarely tried.
      </p>
      <Slider
        value={week}
        onChange={(value) => setWeek(Array.isArray(value) ? (value[0] ?? 0) : value)}
        minValue={0}
        maxValue={summary.weeks}
        step={1}
        className="w-full max-w-xl"
        data-testid="week-slider"
      >
        <Label>Week of the simulation</Label>
        <Slider.Output>{({ state }) => (state.values[0] === 0 ? 'Prior' : `Week ${state.values[0]}`)}</Slider.Output>
        <Slider.Track>
          <Slider.Fill />
          <Slider.Thumb />
        </Slider.Track>
      </Slider>
      <p className="text-sm" aria-live="polite" data-testid="posterior-week">
        Showing {weekName(week)}, policy version {summary.posteriorVersions[week] ?? '—'}.
      </p>
      <Tabs aria-label="Persona">
        <Tabs.ListContainer>
          {/* Six personas wrap onto as many rows as the screen needs, each tab as wide as its name: HeroUI's tabs are
              full width, so wrapped they stacked one per row, and on a phone their names sat outside the list. */}
          <Tabs.List aria-label="Persona" className="w-full flex-wrap">
            {personas.map((persona) => (
              <Tabs.Tab key={persona} id={persona} className="w-auto grow">
                {personaLabel(persona)}
                <Tabs.Indicator />
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs.ListContainer>
        {personas.map((persona) => (
          <Tabs.Panel key={persona} id={persona} className="flex flex-col gap-4 pt-4">
            <figure className="flex flex-col gap-2">
              <figcaption className="font-medium">
                {personaLabel(persona)}: advantage of each arm over no message at {weekName(week)} (simulated)
              </figcaption>
              <PosteriorChart series={byPersona.get(persona) ?? []} week={week} persona={persona} />
            </figure>
            <PosteriorTable series={byPersona.get(persona) ?? []} week={week} persona={persona} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <section aria-labelledby="live-policy-heading" className="flex flex-col gap-2 rounded-2xl border border-dashed border-separator p-4">
        <h2 id="live-policy-heading" className="text-lg font-semibold">
          The live policy
        </h2>
        {livePolicy}
      </section>
    </div>
  );
}
