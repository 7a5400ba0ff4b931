import { init } from '@/lib/components/echart-runtime';
import { describe, expect, it } from 'vitest';
import { PLAIN_CHART_THEME } from '@/lib/components/echart';
import type { ChartOption } from '@/lib/components/echart';
import { buildCmaTrendOption, buildDistributionOption, buildMonthlyLinesOption, buildPersistenceOption } from './chart-options';

/** Renders an option the way the page does (ECharts' SVG renderer), on the server. */
function renderSvg(option: ChartOption, width = 720, height = 320): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption(option);
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

/** The text an SVG shows (its <text> elements), to check labels without matching path data. */
function textsOf(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!.replaceAll('&amp;', '&').trim());
}

describe('patient-adherence chart options', () => {
  it('draws the monthly PDC distribution as boxes, with hidden months left empty', () => {
    const option = buildDistributionOption(
      [
        { month: 1, quartiles: { q1: 0.6, median: 0.9, q3: 1 }, adherentShare: 0.7 },
        { month: 2, quartiles: null, adherentShare: null },
        { month: 3, quartiles: { q1: 0.4, median: 0.7, q3: 0.95 }, adherentShare: 0.45 },
      ],
      PLAIN_CHART_THEME,
    );
    const [boxes, share] = option.series as { type: string; data: unknown[] }[];
    // Whiskers folded onto the box: [Q1, Q1, median, Q3, Q3]; a hidden month has no box and no share.
    expect(boxes).toMatchObject({ type: 'boxplot', data: [[0.6, 0.6, 0.9, 1, 1], [], [0.4, 0.4, 0.7, 0.95, 0.95]] });
    expect(share).toMatchObject({ type: 'line', data: [0.7, null, 0.45] });
    const svg = renderSvg(option);
    // The month labels as drawn text (a bare 'M1' would also match SVG path data such as d="M1 …").
    expect(textsOf(svg)).toEqual(expect.arrayContaining(['M1', 'M2', 'M3', 'Month of treatment', 'Share with PDC ≥ 0.8']));
    expect(textsOf(svg)).not.toContain('M4');
  });

  it('draws persistence as step lines and monthly lines per group', () => {
    const persistence = renderSvg(
      buildPersistenceOption(
        { overall: { label: 'All patients', values: [1, 0.9, null] }, groups: [{ label: 'Routine', values: [1, 0.8, 0.7] }] },
        PLAIN_CHART_THEME,
      ),
    );
    expect(persistence).toContain('All patients');
    expect(persistence).toContain('Routine');
    const lines = renderSvg(
      buildMonthlyLinesOption(
        { months: [1, 2], series: [{ label: 'Routine', values: [0.9, null] }], axisName: 'Median PDC', percent: false },
        PLAIN_CHART_THEME,
      ),
    );
    expect(lines).toContain('Routine');
    const cma = renderSvg(buildCmaTrendOption([{ label: '1 Mar 2025', cma7: 0.9, cma9: null }], PLAIN_CHART_THEME));
    expect(cma).toContain('CMA9');
  });
});
