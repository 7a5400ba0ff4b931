'use client';

/**
 * One Apache ECharts chart (DESIGN §4), drawn as SVG from the modular build with only what these charts
 * use. The chart is an image to assistive technology (role img with a label saying what it shows); the
 * figures themselves are in the table beside it.
 */
import { BarChart, type BarSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, init, use as installEchartsParts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

installEchartsParts([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** The page's text colour and font (CSS), so chart text has the same contrast as the page's. */
export type ChartTheme = { text: string; fontFamily: string };

/** Any CSS colour (the theme uses oklch) as rgb(), which every SVG consumer and checker understands. */
function asRgb(color: string): string {
  const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (context === null) return color;
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
  return `rgb(${red}, ${green}, ${blue})`;
}

export function EChart({ buildOption, label, className }: { buildOption: (theme: ChartTheme) => ChartOption; label: string; className?: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const style = getComputedStyle(element);
    const chart = init(element, null, { renderer: 'svg' });
    chart.setOption(buildOption({ text: asRgb(style.color), fontFamily: style.fontFamily }));
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [buildOption]);
  return <div ref={container} role="img" aria-label={label} className={className} />;
}
