/**
 * ECharts options of the patient-adherence charts, as plain functions of the figures (no React), so tests
 * can render them on the server. Lines are told apart by dash and symbol as well as colour (WCAG 1.4.1).
 */
import type { ChartOption, ChartTheme } from '@/lib/components/echart';
import { formatDecimal, formatPercent, formatRatio } from '@/lib/format';

/** Line colours with at least 3:1 contrast on white (non-text contrast). */
export const SERIES_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c2d12', '#6d28d9', '#0f766e', '#a16207', '#be185d'];
const OVERALL_COLOUR = '#18181b';
const LINE_TYPES = ['solid', 'dashed', 'dotted'] as const;
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow'];
/** Grid lines are guides, not content: light. */
const GRID_LINE_COLOUR = '#e4e4e7';
export const ADHERENT_THRESHOLD = 0.8;

export type ChartSeries = { label: string; values: (number | null)[] };

const seriesStyle = (index: number) => ({
  color: SERIES_COLOURS[index % SERIES_COLOURS.length]!,
  lineStyle: { width: 2, type: LINE_TYPES[index % LINE_TYPES.length]! },
  symbol: SYMBOLS[index % SYMBOLS.length]!,
  symbolSize: 6,
});

function base(theme: ChartTheme): ChartOption {
  return { animation: false, textStyle: { color: theme.text, fontFamily: theme.fontFamily } };
}

function ratioAxis(theme: ChartTheme, name: string, percent = false): ChartOption['yAxis'] {
  return {
    type: 'value',
    min: 0,
    max: 1,
    name,
    nameTextStyle: { color: theme.text },
    axisLabel: { color: theme.text, formatter: (value: number) => (percent ? formatPercent(value) : formatDecimal(value, 1)) },
    splitLine: { lineStyle: { color: GRID_LINE_COLOUR } },
  };
}

/** `boundaryGap` false puts the first and last label on the plot's edges (step curves from month 0). */
function categoryAxis(theme: ChartTheme, labels: string[], name: string, boundaryGap = true): ChartOption['xAxis'] {
  return {
    type: 'category',
    data: labels,
    name,
    nameLocation: 'middle',
    nameGap: 28,
    nameTextStyle: { color: theme.text },
    axisLabel: { color: theme.text },
    boundaryGap,
  };
}

/** A dashed line at PDC 0.8 (adherent), or at 80 % on a chart of shares, on a series of the chart. */
function adherentLine(theme: ChartTheme, percent = false) {
  return {
    silent: true,
    symbol: 'none',
    lineStyle: { color: theme.text, type: 'dashed' as const, width: 1 },
    label: { color: theme.text, formatter: percent ? formatPercent(ADHERENT_THRESHOLD) : String(ADHERENT_THRESHOLD) },
    data: [{ yAxis: ADHERENT_THRESHOLD }],
  };
}

const ratioText = (value: unknown) => (typeof value === 'number' ? formatRatio(value) : '—');
const percentText = (value: unknown) => (typeof value === 'number' ? formatPercent(value) : '—');

export type DistributionMonth = {
  month: number;
  quartiles: { q1: number; median: number; q3: number } | null;
  adherentShare: number | null;
};

/**
 * Monthly PDC distribution: a box from the lower to the upper quartile with the median across it (no
 * whiskers: the extremes are single patients), and the share with PDC ≥ 0.8 as a line.
 */
export function buildDistributionOption(months: readonly DistributionMonth[], theme: ChartTheme): ChartOption {
  return {
    ...base(theme),
    legend: { top: 0, textStyle: { color: theme.text } },
    // Per item: the box's own tooltip would call the folded whiskers a minimum and maximum.
    tooltip: { trigger: 'item' },
    grid: { left: 56, right: 24, top: 48, bottom: 44 },
    xAxis: categoryAxis(
      theme,
      months.map((month) => `M${month.month}`),
      'Month of treatment',
    ),
    yAxis: ratioAxis(theme, 'PDC / share'),
    series: [
      {
        type: 'boxplot',
        name: 'Middle half of patients (quartiles) and median PDC',
        itemStyle: { color: '#dbeafe', borderColor: SERIES_COLOURS[0], borderWidth: 1.5 },
        tooltip: {
          formatter: (parameters: unknown) => {
            // `data` is the item as given below, [Q1, Q1, median, Q3, Q3] (`value` may carry the category index first).
            const { name, data } = parameters as { name?: string; data?: number[] };
            const [, q1, median, q3] = data ?? [];
            return q1 === undefined || median === undefined || q3 === undefined
              ? ''
              : `${name}: median ${formatRatio(median)}, quartiles ${formatRatio(q1)} to ${formatRatio(q3)}`;
          },
        },
        // [min, Q1, median, Q3, max] with the whiskers folded onto the box.
        data: months.map((month) =>
          month.quartiles ? [month.quartiles.q1, month.quartiles.q1, month.quartiles.median, month.quartiles.q3, month.quartiles.q3] : [],
        ),
      },
      {
        type: 'line',
        name: 'Share with PDC ≥ 0.8',
        data: months.map((month) => month.adherentShare),
        ...seriesStyle(1),
        tooltip: { valueFormatter: percentText },
        markLine: adherentLine(theme),
      },
    ],
  };
}

/** Several series of a monthly ratio (median PDC or share adherent per persona or product). */
export function buildMonthlyLinesOption(
  options: { months: readonly number[]; series: readonly ChartSeries[]; axisName: string; percent: boolean },
  theme: ChartTheme,
): ChartOption {
  return {
    ...base(theme),
    legend: { top: 0, type: 'plain', textStyle: { color: theme.text } },
    tooltip: { trigger: 'axis', valueFormatter: options.percent ? percentText : ratioText },
    grid: { left: 56, right: 24, top: 72, bottom: 44 },
    xAxis: categoryAxis(
      theme,
      options.months.map((month) => `M${month}`),
      'Month of treatment',
    ),
    yAxis: ratioAxis(theme, options.axisName, options.percent),
    series: options.series.map((entry, index) => ({
      type: 'line' as const,
      name: entry.label,
      data: entry.values,
      ...seriesStyle(index),
      ...(index === 0 ? { markLine: adherentLine(theme, options.percent) } : {}),
    })),
  };
}

/** Kaplan–Meier persistence: step lines (the share persisting holds until the next month's value), month 0 to 12. */
export function buildPersistenceOption(
  options: { overall: ChartSeries | null; groups: readonly ChartSeries[] },
  theme: ChartTheme,
): ChartOption {
  const length = Math.max(options.overall?.values.length ?? 0, ...options.groups.map((group) => group.values.length));
  const series = [
    ...(options.overall
      ? [
          {
            type: 'line' as const,
            name: options.overall.label,
            data: options.overall.values,
            step: 'end' as const,
            color: OVERALL_COLOUR,
            lineStyle: { width: 3, type: 'solid' as const },
            symbol: 'none',
          },
        ]
      : []),
    ...options.groups.map((group, index) => ({
      type: 'line' as const,
      name: group.label,
      data: group.values,
      step: 'end' as const,
      ...seriesStyle(index),
    })),
  ];
  return {
    ...base(theme),
    legend: { top: 0, textStyle: { color: theme.text } },
    tooltip: { trigger: 'axis', valueFormatter: percentText },
    grid: { left: 56, right: 24, top: 72, bottom: 44 },
    xAxis: categoryAxis(
      theme,
      Array.from({ length }, (_, month) => `M${month}`),
      'Months since first fill',
      false,
    ),
    yAxis: ratioAxis(theme, 'Still on treatment', true),
    series,
  };
}

/** CMA7 and CMA9 in sliding windows (one point per window, labelled by its first day). */
export function buildCmaTrendOption(
  windows: readonly { label: string; cma7: number | null; cma9: number | null }[],
  theme: ChartTheme,
): ChartOption {
  return {
    ...base(theme),
    legend: { top: 0, textStyle: { color: theme.text } },
    tooltip: { trigger: 'axis', valueFormatter: ratioText },
    grid: { left: 56, right: 24, top: 48, bottom: 44 },
    xAxis: categoryAxis(
      theme,
      windows.map((window) => window.label),
      'Window starting',
    ),
    yAxis: ratioAxis(theme, 'CMA'),
    series: [
      { type: 'line', name: 'CMA7', data: windows.map((window) => window.cma7), ...seriesStyle(0), markLine: adherentLine(theme) },
      { type: 'line', name: 'CMA9', data: windows.map((window) => window.cma9), ...seriesStyle(1) },
    ],
  };
}
