'use client';

import { useCallback } from 'react';
import type { TrialArm, WeeklyArmAdherence } from '../contracts';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount, formatDate, formatDecimal } from '@/lib/format';
import { armOrder } from './trial-format';

/** One colour per arm, 3:1 against the page (WCAG 1.4.11), and a marker shape each so colour is not needed (1.4.1). */
const armColours: Record<TrialArm, string> = { intervention: '#7e22ce', control: '#1d4ed8' };
const armSymbols: Record<TrialArm, string> = { intervention: 'diamond', control: 'rect' };
const gridLineColour = '#e4e4e7';

/** Weekly mean adherence per arm with its 95% CI as a shaded band (a stacked pair: the low limit, then high − low). */
export function WeeklyAdherenceChart({ weekly, armLabels }: { weekly: WeeklyArmAdherence[]; armLabels: Record<TrialArm, string> }) {
  const weeks = [...new Set(weekly.map((row) => row.week))].sort((a, b) => a - b);
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => {
      const rowOf = (arm: TrialArm, week: number) => weekly.find((row) => row.arm === arm && row.week === week);
      return {
        animation: false,
        textStyle: { color: theme.text, fontFamily: theme.fontFamily },
        legend: { top: 0, textStyle: { color: theme.text }, data: armOrder.map((arm) => armLabels[arm]) },
        tooltip: {
          trigger: 'axis',
          formatter: (params) => {
            const first = Array.isArray(params) ? params[0] : params;
            const week = weeks[first?.dataIndex ?? 0] ?? 0;
            return [
              `Week ${week}`,
              ...armOrder.map((arm) => {
                const row = rowOf(arm, week);
                return row === undefined
                  ? `${armLabels[arm]}: no data`
                  : `${armLabels[arm]}: ${formatDecimal(row.mean, 3)} (95% CI ${formatDecimal(row.ciLow, 3)} to ${formatDecimal(row.ciHigh, 3)}), n = ${formatCount(row.participants)}`;
              }),
            ].join('<br/>');
          },
        },
        grid: { left: 48, right: 16, top: 40, bottom: 40 },
        xAxis: {
          type: 'category',
          name: 'Week of follow-up',
          nameLocation: 'middle',
          nameGap: 28,
          nameTextStyle: { color: theme.text },
          axisLabel: { color: theme.text },
          data: weeks.map(String),
        },
        yAxis: { type: 'value', min: 0, max: 1, axisLabel: { color: theme.text }, splitLine: { lineStyle: { color: gridLineColour } } },
        series: armOrder.flatMap((arm) => {
          const rows = weeks.map((week) => rowOf(arm, week));
          return [
            {
              type: 'line' as const,
              name: `${armLabels[arm]} lower limit`,
              stack: `band-${arm}`,
              data: rows.map((row) => row?.ciLow ?? null),
              lineStyle: { opacity: 0 },
              symbol: 'none',
              silent: true,
            },
            {
              type: 'line' as const,
              name: `${armLabels[arm]} 95% CI`,
              stack: `band-${arm}`,
              data: rows.map((row) => (row === undefined ? null : row.ciHigh - row.ciLow)),
              lineStyle: { opacity: 0 },
              areaStyle: { color: armColours[arm], opacity: 0.18 },
              symbol: 'none',
              silent: true,
            },
            {
              type: 'line' as const,
              name: armLabels[arm],
              data: rows.map((row) => row?.mean ?? null),
              color: armColours[arm],
              symbol: armSymbols[arm],
              symbolSize: 7,
              lineStyle: { width: 2, type: arm === 'control' ? ('dashed' as const) : ('solid' as const) },
            },
          ];
        }),
      };
    },
    [weekly, weeks, armLabels],
  );
  const label = `Line chart of mean dose-level adherence in each week of follow-up by arm, with 95% confidence bands: ${armOrder
    .map((arm) => {
      const rows = weekly.filter((row) => row.arm === arm);
      const first = rows[0];
      const last = rows.at(-1);
      return first === undefined || last === undefined
        ? `${armLabels[arm]} no data`
        : `${armLabels[arm]} from ${formatDecimal(first.mean, 3)} in week ${first.week} to ${formatDecimal(last.mean, 3)} in week ${last.week}`;
    })
    .join('; ')}. The same figures are in the table below.`;
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full max-w-4xl" />;
}

/** Cumulative enrolment by week while the trial runs. */
export function AccrualChart({ accrual }: { accrual: { weekStarting: string; cumulative: number }[] }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 40 },
      xAxis: {
        type: 'category',
        name: 'Week starting',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        data: accrual.map((row) => formatDate(row.weekStarting, { short: true })),
      },
      yAxis: { type: 'value', min: 0, axisLabel: { color: theme.text }, splitLine: { lineStyle: { color: gridLineColour } } },
      series: [{ type: 'bar', name: 'Participants enrolled (cumulative)', color: '#1d4ed8', data: accrual.map((row) => row.cumulative) }],
    }),
    [accrual],
  );
  const last = accrual.at(-1);
  const label =
    last === undefined
      ? 'Bar chart of cumulative enrolment: no one enrolled yet.'
      : `Bar chart of cumulative enrolment by week: ${formatCount(last.cumulative)} participants by the week starting ${formatDate(last.weekStarting)}. The same figures are in the table below.`;
  return <EChart buildOption={buildOption} label={label} className="h-64 w-full max-w-4xl" />;
}
