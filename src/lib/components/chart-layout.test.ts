import { describe, expect, it } from 'vitest';
import { adaptChartOption, legendHeight, type MeasureText, minimumChartHeight } from './chart-layout';
import type { ChartOption } from './echart';

/** A rough width of sans-serif text: enough to exercise the wrapping rules. */
// The adapted option's parts as the assertions read them (ECharts' own option types are unions).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only reading of a loosely typed option
type Adapted = Record<string, any>;

const measure: MeasureText = (text, fontSize) => text.length * fontSize * 0.6;

const personas = ['Forgetful starter', 'Sceptical veteran', 'Busy carer', 'Cost-constrained', 'Side-effect worried', 'Steady taker'];

function linesOption(): ChartOption {
  return {
    legend: { top: 0 },
    grid: { left: 56, right: 24, top: 72, bottom: 44 },
    xAxis: { type: 'category', name: 'Month of treatment', data: Array.from({ length: 13 }, (_, month) => `Month ${month}`) },
    yAxis: { type: 'value', name: 'Median PDC' },
    series: personas.map((name) => ({ type: 'line' as const, name, data: [] })),
  };
}

describe('adaptChartOption', () => {
  it('puts the legend below the plot with room for every wrapped row, at 390 px as at 1,000', () => {
    for (const width of [390, 1000]) {
      const adapted = adaptChartOption(linesOption(), width, measure) as Adapted;
      expect(adapted.legend).toMatchObject({ bottom: 0, left: 'center', type: 'plain' });
      expect(adapted.legend.top).toBeUndefined();
      const rows = legendHeight(personas, width, measure);
      expect(adapted.grid.bottom).toBeGreaterThan(rows);
      expect(adapted.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'all' });
    }
    // Six long names need more rows on a phone than on a desktop, and the chart grows to keep its plot.
    expect(legendHeight(personas, 390, measure)).toBeGreaterThan(legendHeight(personas, 1000, measure));
    expect(minimumChartHeight(adaptChartOption(linesOption(), 390, measure))).toBeGreaterThan(
      minimumChartHeight(adaptChartOption(linesOption(), 1000, measure)),
    );
  });

  it('thins month labels that cannot all fit, and wraps a few long category names instead of hiding them', () => {
    const months = adaptChartOption(linesOption(), 390, measure) as Adapted;
    expect(months.xAxis.axisLabel).toMatchObject({ interval: 'auto', hideOverlap: true });
    expect(months.xAxis.nameMoveOverlap).toBe(true);

    const scenarios: ChartOption = {
      xAxis: { type: 'category', data: ['Nobody contacted', 'Riskiest tenth contacted', 'Everyone contacted'] },
      yAxis: { type: 'value' },
      series: [{ type: 'bar', data: [0.7, 0.75, 0.8] }],
    };
    const narrow = adaptChartOption(scenarios, 390, measure) as Adapted;
    expect(narrow.xAxis.axisLabel).toMatchObject({ interval: 0, overflow: 'break' });
    // A word wider than its band is never cut: the labels stand upright instead.
    const conditions: ChartOption = {
      ...scenarios,
      xAxis: { type: 'category', data: ['Hypertension', 'Hyperlipidaemia', 'Type 2 diabetes', 'Heart failure'] },
    };
    expect((adaptChartOption(conditions, 390, measure) as Adapted).xAxis.axisLabel).toMatchObject({ interval: 0, rotate: 90 });
    const wide = adaptChartOption(scenarios, 1200, measure) as Adapted;
    expect(wide.xAxis.axisLabel).toMatchObject({ interval: 0 });
    expect(wide.xAxis.axisLabel.overflow).toBeUndefined();
  });

  it('labels every bar with its value as the tooltip or value axis formats it: above it, upright when it is too wide, inside a stack', () => {
    const option: ChartOption = {
      tooltip: { valueFormatter: (value) => `${Math.round(Number(value) * 100)}%` },
      xAxis: { type: 'category', data: ['A', 'B'] },
      yAxis: { type: 'value' },
      series: [{ type: 'bar', name: 'Doses taken', data: [0.716, null] }],
    };
    const [plain] = (adaptChartOption(option, 390, measure) as Adapted).series;
    expect(plain.label).toMatchObject({ show: true, position: 'top' });
    expect(plain.label.rotate).toBeUndefined();
    expect(plain.label.formatter({ value: 0.716 })).toBe('72%');
    expect(plain.label.formatter({ value: null })).toBe('');

    // Three scenarios for each of four conditions on a phone: "12,345" is wider than the gap between bars.
    const grouped: ChartOption = {
      xAxis: { type: 'category', data: ['A', 'B', 'C', 'D'] },
      yAxis: { type: 'value' },
      series: ['Low', 'Central', 'High'].map((name) => ({ type: 'bar' as const, name, data: [12_345, 2, 3, 4] })),
    };
    const upright = adaptChartOption(grouped, 390, measure) as Adapted;
    expect(upright.series[0].label).toMatchObject({ show: true, position: 'top', rotate: 90 });
    expect(upright.yAxis.boundaryGap).toEqual([0, '20%']);
    const roomy = adaptChartOption(grouped, 1400, measure) as Adapted;
    expect(roomy.series[0].label.rotate).toBeUndefined();

    const stacked: ChartOption = { ...option, series: [{ type: 'bar', name: 'Stacked', stack: 'total', data: [3, 4] }] };
    expect((adaptChartOption(stacked, 390, measure) as Adapted).series[0].label).toMatchObject({ show: true, position: 'inside' });
  });

  it('labels no bar of a year of daily bars, too thin for any figure', () => {
    const days = Array.from({ length: 365 }, (_, day) => `Day ${day}`);
    const option: ChartOption = {
      xAxis: { type: 'category', data: days },
      yAxis: { type: 'value' },
      series: [{ type: 'bar', stack: 'total', data: days.map(() => 10) }],
    };
    const [daily] = (adaptChartOption(option, 1000, measure) as Adapted).series;
    expect(daily.label).toBeUndefined();
  });

  it('wraps a long axis name under the plot to the width the category labels leave, and leaves a short one be', () => {
    const option = (name: string): ChartOption => ({
      xAxis: { type: 'value', name, nameLocation: 'middle' },
      yAxis: { type: 'category', data: ['Reminder, friendly', 'No message'] },
      series: [{ type: 'bar', data: [0.1, 0] }],
    });
    const long = 'Advantage over no message (share of doses confirmed)';
    const narrow = adaptChartOption(option(long), 390, measure) as Adapted;
    const labels = measure('Reminder, friendly', 12) + 8;
    expect(narrow.xAxis.nameTextStyle).toMatchObject({ overflow: 'break' });
    expect(narrow.xAxis.nameTextStyle.width).toBeLessThanOrEqual(390 - labels);
    expect(measure(long, 12)).toBeGreaterThan(narrow.xAxis.nameTextStyle.width);
    expect((adaptChartOption(option(long), 1000, measure) as Adapted).xAxis.nameTextStyle).toBeUndefined();
    expect((adaptChartOption(option('Share'), 390, measure) as Adapted).xAxis.nameTextStyle).toBeUndefined();
  });

  it('leaves a chart without axes (a calendar) its own layout', () => {
    const calendar: ChartOption = { calendar: { range: '2026-01' }, series: [{ type: 'heatmap', coordinateSystem: 'calendar', data: [] }] };
    expect(adaptChartOption(calendar, 390, measure)).toEqual(calendar);
    expect(minimumChartHeight(calendar)).toBe(0);
  });
});
