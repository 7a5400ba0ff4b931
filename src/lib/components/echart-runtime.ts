/**
 * The ECharts runtime with only the parts the pages use, loaded by `EChart` when a chart first comes near the
 * screen: its ~620 kB of script is then parsed after the page is interactive, and only on pages that draw.
 */
import { BarChart, BoxplotChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  CalendarComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
} from 'echarts/components';
import { init, use as installEchartsParts } from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';

installEchartsParts([
  LineChart,
  BarChart,
  BoxplotChart,
  HeatmapChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  MarkLineComponent,
  CalendarComponent,
  VisualMapPiecewiseComponent,
  // Label layout: hideOverlap on bar labels (chart-layout.ts).
  LabelLayout,
  SVGRenderer,
]);

export { init };
