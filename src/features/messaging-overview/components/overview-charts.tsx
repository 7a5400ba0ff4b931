'use client';

import { useCallback } from 'react';
import { type ChartTheme, EChart } from '@/lib/components/echart';
import { type BarSeries, buildStackedBarsOption } from './chart-options';

/** Stacked bars (messages per day by channel, opt-outs per week by source); the view puts a table beside it. */
export function StackedBarsChart({
  labels,
  series,
  axisName,
  label,
}: {
  labels: string[];
  series: BarSeries[];
  axisName: string;
  label: string;
}) {
  const buildOption = useCallback(
    (theme: ChartTheme) => buildStackedBarsOption({ labels, series, axisName }, theme),
    [labels, series, axisName],
  );
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full" />;
}
