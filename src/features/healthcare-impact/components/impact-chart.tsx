'use client';

import { useCallback } from 'react';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatCount } from '@/lib/format';

/** Bars told apart by pattern-free order and a legend; the table beside the chart holds the same figures. */
const SCENARIO_COLOURS = { low: '#93c5fd', central: '#1d4ed8', high: '#1e3a8a' } as const;

export type ScenarioBars = { label: string; low: number; central: number; high: number };

/** Events avoided per condition (or group) in the three scenarios, as grouped bars. */
export function ScenarioBarChart({ bars, label, axisName }: { bars: ScenarioBars[]; label: string; axisName: string }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { top: 0, textStyle: { color: theme.text } },
      grid: { left: 72, right: 16, top: 40, bottom: 48 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: bars.map((bar) => bar.label), axisLabel: { color: theme.text } },
      yAxis: {
        type: 'value',
        name: axisName,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text, formatter: (value: number) => formatCount(value) },
        splitLine: { lineStyle: { color: '#e4e4e7' } },
      },
      series: (['low', 'central', 'high'] as const).map((scenario) => ({
        type: 'bar' as const,
        name: scenario === 'low' ? 'Low' : scenario === 'central' ? 'Central' : 'High',
        itemStyle: { color: SCENARIO_COLOURS[scenario] },
        data: bars.map((bar) => Number(bar[scenario].toFixed(2))),
      })),
    }),
    [bars, axisName],
  );
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full max-w-3xl" />;
}
