import { describe, expect, it } from 'vitest';
import { PLAIN_CHART_THEME } from '@/lib/components/echart';
import { buildCalibrationOption, buildRocOption, buildTargetingOption } from './risk-chart-options';

describe('risk chart options', () => {
  it('draws one ROC line per model plus the chance diagonal, from the figures given', () => {
    const option = buildRocOption(
      [
        {
          name: 'Neural network',
          points: [
            { falsePositiveRate: 0, truePositiveRate: 0 },
            { falsePositiveRate: 0.2, truePositiveRate: 0.7 },
            { falsePositiveRate: 1, truePositiveRate: 1 },
          ],
        },
        {
          name: 'Logistic regression',
          points: [
            { falsePositiveRate: 0, truePositiveRate: 0 },
            { falsePositiveRate: 1, truePositiveRate: 1 },
          ],
        },
      ],
      PLAIN_CHART_THEME,
    );
    const series = option.series as { name: string; data: number[][] }[];
    expect(series.map((entry) => entry.name)).toEqual(['Neural network', 'Logistic regression', 'Chance']);
    expect(series[0]!.data).toEqual([
      [0, 0],
      [0.2, 0.7],
      [1, 1],
    ]);
  });

  it('plots calibration bins as (mean predicted, observed) and targeting as one bar per scenario', () => {
    const calibration = buildCalibrationOption(
      [{ name: 'Rule', points: [{ meanPredicted: 0.15, observedRate: 0.1, count: 40 }] }],
      PLAIN_CHART_THEME,
    );
    expect((calibration.series as { data: number[][] }[])[0]!.data).toEqual([[0.15, 0.1]]);
    const targeting = buildTargetingOption(
      [
        { label: 'No reminders', result: { scenario: 'no-one', patientsMessaged: 0, messages: 0, adherence: 0.7 } },
        { label: 'Everyone', result: { scenario: 'everyone', patientsMessaged: 10, messages: 280, adherence: 0.8 } },
      ],
      PLAIN_CHART_THEME,
    );
    expect((targeting.series as { data: number[] }[])[0]!.data).toEqual([0.7, 0.8]);
  });
});
