'use client';

/**
 * The patient-adherence charts (Apache ECharts through the shared wrapper). Each takes plain figures, so the
 * server-rendered views can pass them; the label says what the chart shows, and the view puts a table or
 * text with the same figures beside it.
 */
import { useCallback } from 'react';
import { type ChartTheme, EChart } from '@/lib/components/echart';
import {
  buildCmaTrendOption,
  buildDistributionOption,
  buildMonthlyLinesOption,
  buildPersistenceOption,
  type ChartSeries,
  type DistributionMonth,
} from './chart-options';

type Labelled = { label: string };

export function PdcDistributionChart({ months, label }: Labelled & { months: DistributionMonth[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildDistributionOption(months, theme), [months]);
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full max-w-4xl" />;
}

export function MonthlyLinesChart({
  months,
  series,
  axisName,
  percent,
  label,
}: Labelled & { months: number[]; series: ChartSeries[]; axisName: string; percent: boolean }) {
  const buildOption = useCallback(
    (theme: ChartTheme) => buildMonthlyLinesOption({ months, series, axisName, percent }, theme),
    [months, series, axisName, percent],
  );
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full" />;
}

export function PersistenceChart({ overall, groups, label }: Labelled & { overall: ChartSeries | null; groups: ChartSeries[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildPersistenceOption({ overall, groups }, theme), [overall, groups]);
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full max-w-4xl" />;
}

export function CmaTrendChart({ windows, label }: Labelled & { windows: { label: string; cma7: number | null; cma9: number | null }[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildCmaTrendOption(windows, theme), [windows]);
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full max-w-4xl" />;
}
