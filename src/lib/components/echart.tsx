'use client';

/**
 * One Apache ECharts chart (DESIGN §4: one library for every chart), drawn as SVG from the modular build
 * with only the parts the pages use. The chart is an image to assistive technology (role img with a label
 * saying what it shows); every page shows the same figures in a table or text beside it. The wrapper lays
 * every chart out for its width (chart-layout.ts) and again when the width changes, so builders need not.
 */
import type { BarSeriesOption, BoxplotSeriesOption, HeatmapSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  CalendarComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { useEffect, useRef } from 'react';
import { adaptChartOption, type MeasureText, minimumChartHeight } from './chart-layout';

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | BoxplotSeriesOption
  | HeatmapSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | MarkLineComponentOption
  | CalendarComponentOption
  | VisualMapComponentOption
>;

/**
 * The page's text colour and font (CSS), so chart text has the same contrast as the page's; `color` reads
 * a theme variable (e.g. "--success") so charts use the same colours as the rest of the page.
 */
export type ChartTheme = { text: string; fontFamily: string; color: (cssVariable: string, fallback: string) => string };

/** Any CSS colour (the theme uses oklch) as rgb(), which every SVG consumer and checker understands. */
function asRgb(color: string): string {
  const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (context === null) return color;
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
  return `rgb(${red}, ${green}, ${blue})`;
}

/** A fixed theme for rendering without a page (server-side SVG, tests). */
export const PLAIN_CHART_THEME: ChartTheme = { text: '#18181b', fontFamily: 'sans-serif', color: (_variable, fallback) => fallback };

export function EChart({
  buildOption,
  label,
  className,
}: {
  buildOption: (theme: ChartTheme) => ChartOption;
  label: string;
  className?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    let disposed = false;
    let dispose = () => {};
    const draw = async () => {
      const { init } = await import('./echart-runtime');
      if (disposed) return;
      const style = getComputedStyle(element);
      const color = (cssVariable: string, fallback: string) => {
        const value = style.getPropertyValue(cssVariable).trim();
        return value === '' ? fallback : asRgb(value);
      };
      const canvas = document.createElement('canvas').getContext('2d');
      const measure: MeasureText = (text, fontSize) => {
        if (canvas === null) return text.length * fontSize * 0.6;
        canvas.font = `${fontSize}px ${style.fontFamily}`;
        return canvas.measureText(text).width;
      };
      const option = buildOption({ text: asRgb(style.color), fontFamily: style.fontFamily, color });
      const chart = init(element, null, { renderer: 'svg' });
      let width = element.clientWidth;
      const layOut = (replace: boolean) => {
        const adapted = adaptChartOption(option, width, measure);
        // Taller on a narrow screen when the legend wraps, so the plot keeps its height.
        const least = minimumChartHeight(adapted);
        element.style.minHeight = least === 0 ? '' : `${least}px`;
        chart.resize();
        chart.setOption(adapted, replace ? { notMerge: true } : undefined);
      };
      layOut(false);
      const resizing = new ResizeObserver(() => {
        if (element.clientWidth === width) {
          chart.resize();
          return;
        }
        width = element.clientWidth;
        layOut(true);
      });
      resizing.observe(element);
      dispose = () => {
        resizing.disconnect();
        chart.dispose();
      };
    };
    // Drawn when the chart comes within 200 px of view, each in its own task, so a page with many charts
    // neither parses the chart library nor lays out every chart before the reader can use the page.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const nearScreen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        nearScreen.disconnect();
        timer = setTimeout(() => void draw(), 0);
      },
      { rootMargin: '200px 0px' },
    );
    nearScreen.observe(element);
    return () => {
      disposed = true;
      nearScreen.disconnect();
      clearTimeout(timer);
      dispose();
    };
  }, [buildOption]);
  return <div ref={container} role="img" aria-label={label} className={className} />;
}
