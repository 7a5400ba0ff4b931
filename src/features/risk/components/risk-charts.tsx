'use client';

/** The risk evaluation's charts (Apache ECharts through the shared wrapper); the view shows the same figures in tables. */
import { useCallback } from 'react';
import type { CalibrationBin, EpochLoss, RocPoint, TargetingResult } from '@/engine/risk';
import { type ChartTheme, EChart } from '@/lib/components/echart';
import {
  buildCalibrationOption,
  buildRocOption,
  buildTargetingOption,
  buildTrainingCurveOption,
  type NamedCurve,
} from './risk-chart-options';

type Labelled = { label: string };

export function RocChart({ curves, label }: Labelled & { curves: NamedCurve<RocPoint>[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildRocOption(curves, theme), [curves]);
  return <EChart buildOption={buildOption} label={label} className="h-96 w-full max-w-2xl" />;
}

export function CalibrationChart({ curves, label }: Labelled & { curves: NamedCurve<CalibrationBin>[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildCalibrationOption(curves, theme), [curves]);
  return <EChart buildOption={buildOption} label={label} className="h-96 w-full max-w-2xl" />;
}

export function TrainingCurveChart({ curve, label }: Labelled & { curve: EpochLoss[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildTrainingCurveOption(curve, theme), [curve]);
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full max-w-2xl" />;
}

export function TargetingChart({ results, label }: Labelled & { results: { label: string; result: TargetingResult }[] }) {
  const buildOption = useCallback((theme: ChartTheme) => buildTargetingOption(results, theme), [results]);
  return <EChart buildOption={buildOption} label={label} className="h-72 w-full max-w-2xl" />;
}
