/**
 * ECharts options of the risk evaluation's charts, from plain figures (testable without a browser).
 */
import type { CalibrationBin, EpochLoss, RocPoint, TargetingResult } from '@/engine/risk';
import type { ChartOption, ChartTheme } from '@/lib/components/echart';

export type NamedCurve<Point> = { name: string; points: Point[] };

const palette = ['#2563eb', '#c2410c', '#15803d'];

function axes(theme: ChartTheme, xName: string, yName: string, percent: boolean) {
  const label = {
    color: theme.text,
    fontFamily: theme.fontFamily,
    ...(percent ? { formatter: (value: number) => `${Math.round(value * 100)}%` } : {}),
  };
  const name = { color: theme.text, fontFamily: theme.fontFamily };
  return {
    xAxis: {
      type: 'value' as const,
      min: 0,
      max: 1,
      name: xName,
      nameLocation: 'middle' as const,
      nameGap: 28,
      nameTextStyle: name,
      axisLabel: label,
    },
    yAxis: { type: 'value' as const, min: 0, max: 1, name: yName, nameTextStyle: name, axisLabel: label },
  };
}

const diagonal = (theme: ChartTheme) => ({
  name: 'Chance / perfect calibration',
  type: 'line' as const,
  data: [
    [0, 0],
    [1, 1],
  ],
  symbol: 'none',
  lineStyle: { type: 'dashed' as const, color: theme.color('--muted', '#71717a'), width: 1 },
});

export function buildRocOption(curves: NamedCurve<RocPoint>[], theme: ChartTheme): ChartOption {
  return {
    animation: false,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    legend: { textStyle: { color: theme.text } },
    tooltip: { trigger: 'item' },
    grid: { left: 56, right: 16, top: 48, bottom: 48 },
    ...axes(theme, 'False positive rate', 'True positive rate', true),
    series: [
      ...curves.map((curve, index) => ({
        name: curve.name,
        type: 'line' as const,
        symbol: 'none',
        color: palette[index % palette.length],
        data: curve.points.map((point) => [point.falsePositiveRate, point.truePositiveRate]),
      })),
      { ...diagonal(theme), name: 'Chance' },
    ],
  };
}

export function buildCalibrationOption(curves: NamedCurve<CalibrationBin>[], theme: ChartTheme): ChartOption {
  return {
    animation: false,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    legend: { textStyle: { color: theme.text } },
    tooltip: { trigger: 'item' },
    grid: { left: 56, right: 16, top: 48, bottom: 48 },
    ...axes(theme, 'Predicted risk (mean of the bin)', 'Observed share below 0.8', true),
    series: [
      ...curves.map((curve, index) => ({
        name: curve.name,
        type: 'line' as const,
        symbolSize: 6,
        color: palette[index % palette.length],
        data: curve.points.map((bin) => [bin.meanPredicted, bin.observedRate]),
      })),
      { ...diagonal(theme), name: 'Perfect calibration' },
    ],
  };
}

export function buildTrainingCurveOption(curve: EpochLoss[], theme: ChartTheme): ChartOption {
  return {
    animation: false,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    legend: { textStyle: { color: theme.text } },
    tooltip: { trigger: 'axis' },
    grid: { left: 56, right: 16, top: 48, bottom: 48 },
    xAxis: {
      type: 'category',
      name: 'Epoch',
      nameLocation: 'middle',
      nameGap: 28,
      data: curve.map((entry) => String(entry.epoch)),
      axisLabel: { color: theme.text },
    },
    yAxis: { type: 'value', name: 'Log loss', axisLabel: { color: theme.text } },
    series: [
      { name: 'Training weeks', type: 'line', color: palette[0], data: curve.map((entry) => entry.trainingLoss) },
      { name: 'Test weeks', type: 'line', color: palette[1], data: curve.map((entry) => entry.heldOutLoss) },
    ],
  };
}

export function buildTargetingOption(results: { label: string; result: TargetingResult }[], theme: ChartTheme): ChartOption {
  return {
    animation: false,
    textStyle: { color: theme.text, fontFamily: theme.fontFamily },
    tooltip: { trigger: 'axis' },
    grid: { left: 56, right: 16, top: 24, bottom: 48 },
    xAxis: { type: 'category', data: results.map((entry) => entry.label), axisLabel: { color: theme.text } },
    yAxis: {
      type: 'value',
      name: 'Doses taken',
      axisLabel: { color: theme.text, formatter: (value: number) => `${Math.round(value * 100)}%` },
      min: (extent: { min: number }) => Math.max(0, Math.floor(extent.min * 20) / 20 - 0.05),
    },
    series: [{ name: 'Doses taken (simulated)', type: 'bar', color: palette[0], data: results.map((entry) => entry.result.adherence) }],
  };
}
