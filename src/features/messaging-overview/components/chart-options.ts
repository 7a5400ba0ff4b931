/**
 * ECharts options of the overview's charts, as plain functions of the figures (no React). Bars are told apart
 * by pattern-free colours with 3:1 contrast and by the legend; the tables beside them hold the same figures.
 */
import type { ChartOption, ChartTheme } from '@/lib/components/echart';

const COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c2d12', '#6d28d9', '#0f766e'];
const GRID_LINE_COLOUR = '#e4e4e7';

export type BarSeries = { label: string; values: (number | null)[] };

/** Stacked bars per category label (days or weeks), one series per group; a hidden figure is a gap. */
export function buildStackedBarsOption(
  options: { labels: string[]; series: BarSeries[]; axisName: string },
  theme: ChartTheme,
): ChartOption {
  return {
    animation: false,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    legend: { top: 0, textStyle: { color: theme.text } },
    tooltip: { trigger: 'axis' },
    grid: { left: 56, right: 24, top: 40, bottom: 44 },
    xAxis: { type: 'category', data: options.labels, axisLabel: { color: theme.text } },
    yAxis: {
      type: 'value',
      name: options.axisName,
      nameTextStyle: { color: theme.text },
      axisLabel: { color: theme.text },
      splitLine: { lineStyle: { color: GRID_LINE_COLOUR } },
    },
    series: options.series.map((entry, index) => ({
      type: 'bar' as const,
      name: entry.label,
      stack: 'total',
      data: entry.values,
      color: COLOURS[index % COLOURS.length]!,
    })),
  };
}
