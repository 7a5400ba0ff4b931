import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DemandForecastDto } from '../demand-forecast-dto';
import { DemandForecastSection } from './demand-forecast-section';

const count = (value: number) => ({ kind: 'count' as const, value });
const small = { kind: 'hidden' as const, label: '<11' };

const forecast: DemandForecastDto = {
  asOf: '2026-02-28',
  products: [{ id: 'statin', name: 'Atorva 20' }],
  periodWording: 'Fills of Atorva 20 expected in Mar 2026 – May 2026, from the fills of the 40 patients dispensed them.',
  regionWording: 'The region filter does not apply to the forecast: it covers patients in every region.',
  methodWording: 'Each current patient’s next fills follow their recent refill interval.',
  synthetic: true,
  suppressed: false,
  suppressedReason: null,
  pending: null,
  patients: 40,
  months: [
    { label: '2026-03', expectedFills: 36.4, fillsLow: 33.1, fillsHigh: 39.7, expectedUnits: 1092, unitsLow: 990, unitsHigh: 1194 },
    { label: '2026-04', expectedFills: 34, fillsLow: 30, fillsHigh: 38, expectedUnits: 1020, unitsLow: 900, unitsHigh: 1140 },
    { label: '2026-05', expectedFills: 32, fillsLow: 28, fillsHigh: 36, expectedUnits: 960, unitsLow: 840, unitsHigh: 1080 },
  ],
  backtest: {
    months: [
      { label: '2025-12', forecast: 38, low: 35, high: 41, naive: count(42), actual: count(37) },
      { label: '2026-01', forecast: 36, low: 33, high: 39, naive: count(40), actual: count(36) },
      { label: '2026-02', forecast: 35, low: 32, high: 38, naive: count(41), actual: count(33) },
    ],
    forecastError: { meanAbsoluteError: 1, mape: 0.0293 },
    naiveError: { meanAbsoluteError: 5.67, mape: 0.153 },
    withinInterval: 3,
  },
};

const text = (markup: string) => markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('DemandForecastSection', () => {
  it('shows the next three months, the backtest with both errors, and what the figures cover', () => {
    const markup = renderToStaticMarkup(<DemandForecastSection forecast={forecast} />);
    const shown = text(markup);
    expect(shown).toContain('Demand forecast');
    expect(shown).toContain('synthetic demo data');
    expect(shown).toContain('from the fills of the 40 patients');
    expect(shown).toContain('Mar 2026 36 (33 to 40) 1,092 (990 to 1,194)');
    expect(shown).toContain('Dec 2025 38 (35 to 41) 42 37');
    expect(shown).toContain('MAPE 2.9%');
    expect(shown).toContain('MAPE 15.3%');
    expect(shown).toContain('3 of 3 inside the interval');
    expect(markup).toContain('role="img"');
    expect(shown).toContain('The region filter does not apply to the forecast: it covers patients in every region.');
  });

  it('shows backtest fills of 1–10 as "<11" and the errors resting on them as "hidden"', () => {
    const months = forecast.backtest!.months;
    const markup = renderToStaticMarkup(
      <DemandForecastSection
        forecast={{
          ...forecast,
          backtest: {
            months: [
              { ...months[0]!, actual: small, naive: count(12) },
              { ...months[1]!, actual: count(11), naive: small },
              { ...months[2]!, actual: count(0), naive: count(0) },
            ],
            forecastError: null,
            naiveError: null,
            withinInterval: null,
          },
        }}
      />,
    );
    const shown = text(markup);
    expect(shown).toContain('Dec 2025 38 (35 to 41) 12 &lt;11');
    expect(shown).toContain('Jan 2026 36 (33 to 39) &lt;11 11');
    expect(shown).toContain('Feb 2026 35 (32 to 38) 0 0');
    expect(shown).toContain('Errors hidden (a month&#x27;s count is &lt;11) Errors hidden');
    expect(shown).toContain('hidden of 3 inside the interval');
    expect(shown).not.toContain('MAPE');
  });

  it('shows "<11" and no figure when suppressed', () => {
    const markup = renderToStaticMarkup(
      <DemandForecastSection
        forecast={{ ...forecast, suppressed: true, suppressedReason: 'too-few-patients', patients: null, months: [], backtest: null }}
      />,
    );
    expect(text(markup)).toContain('Not shown: &lt;11 patients');
    expect(markup).not.toContain('demand-forecast-months');
    expect(markup).not.toContain('demand-backtest');
    expect(markup).not.toContain('role="img"');
  });
});
