'use client';

import { useCallback } from 'react';
import type { PersonaAccuracy } from '@/engine/surveys';
import { type ChartOption, type ChartTheme, EChart } from '@/lib/components/echart';
import { formatPercent } from '@/lib/format';

const gridLineColour = '#e4e4e7';

/** Persona accuracy against questions asked, adaptive and fixed order, with the 80% target as a line. */
export function PersonaAccuracyChart({ result, label }: { result: PersonaAccuracy; label: string }) {
  const buildOption = useCallback(
    (theme: ChartTheme): ChartOption => ({
      animation: false,
      textStyle: { color: theme.text, fontFamily: theme.fontFamily },
      legend: { top: 0, textStyle: { color: theme.text } },
      tooltip: { trigger: 'axis', valueFormatter: (value) => (typeof value === 'number' ? formatPercent(value, 1) : String(value)) },
      grid: { left: 56, right: 16, top: 40, bottom: 44 },
      xAxis: {
        type: 'category',
        name: 'Questions asked',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { color: theme.text },
        axisLabel: { color: theme.text },
        data: result.curve.map((point) => String(point.questions)),
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: 1,
        axisLabel: { color: theme.text, formatter: (value: number) => formatPercent(value) },
        splitLine: { lineStyle: { color: gridLineColour } },
      },
      series: [
        {
          type: 'line',
          name: 'Adaptive order',
          data: result.curve.map((point) => point.adaptive),
          color: '#1d4ed8',
          lineStyle: { width: 2 },
          markLine: {
            symbol: 'none',
            silent: true,
            // Inside the plot, above the line at the left where the curves are still low: the default end position
            // ran past the chart's right edge.
            label: { formatter: `Target ${formatPercent(result.target)}`, color: theme.text, position: 'insideStartTop' },
            lineStyle: { color: '#52525b', type: 'dotted' },
            data: [{ yAxis: result.target }],
          },
        },
        {
          type: 'line',
          name: 'Fixed order',
          data: result.curve.map((point) => point.fixed),
          color: '#b45309',
          lineStyle: { width: 2, type: 'dashed' },
        },
      ],
    }),
    [result],
  );
  return <EChart buildOption={buildOption} label={label} className="h-80 w-full" />;
}
