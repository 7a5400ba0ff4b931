/**
 * Layout every chart gets from the wrapper, whatever its builder says, so a chart stays readable down to a
 * phone's 390 px: the legend below the plot with room measured for its wrapped rows (never over an axis
 * name), axis labels and names kept inside the chart and clear of each other, category labels that fit
 * (all shown, wrapped onto lines, or thinned so none collide) and a value label on every bar that has room
 * for one (the table beside each chart holds every figure). Pure, so tests can run it without a browser.
 */
import type { ChartOption } from './echart';

/** Width in pixels of a text at a font size (a canvas's measureText in the browser, an estimate in tests). */
export type MeasureText = (text: string, fontSize: number) => number;

/** ECharts' legend defaults (px), which the legend's height is worked out from. */
const LEGEND = { padding: 5, itemWidth: 25, itemHeight: 14, itemGap: 10, textGap: 5, fontSize: 12 } as const;
const AXIS_FONT_SIZE = 12;
const X_LABEL_MARGIN = 12;
const LINE_HEIGHT = 16;
/** A bar narrower than this gets no value label (a year of daily bars): the table beside it has the figures. */
const NARROWEST_LABELLED_BAR = 16;
const BAR_LABEL_FONT_SIZE = 11;
/** Space between the legend and the axis name above it, and around the plot's edges. */
const GAP = 12;
const EDGE = 8;
/** The least height a plot with its axis labels and names keeps, however many rows the legend takes. */
const LEAST_PLOT_HEIGHT = 200;
/** Up to this many categories keep every label (wrapped onto lines); more are thinned. */
const MOST_WRAPPED_CATEGORIES = 8;

type Loose = Record<string, unknown>;
const asList = (value: unknown): Loose[] =>
  Array.isArray(value) ? (value as Loose[]) : value === undefined || value === null ? [] : [value as Loose];
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The legend's entries: its own data, or the series' names. */
function legendEntries(option: Loose, legend: Loose): string[] {
  if (Array.isArray(legend.data)) return legend.data.map((entry) => (isObject(entry) ? String(entry.name ?? '') : String(entry)));
  return asList(option.series)
    .map((series) => series.name)
    .filter((name): name is string => typeof name === 'string' && name !== '');
}

/** Height of a horizontal legend whose items wrap onto rows `width` wide (ECharts' box layout). */
export function legendHeight(entries: readonly string[], width: number, measure: MeasureText): number {
  if (entries.length === 0) return 0;
  const available = width - 2 * LEGEND.padding;
  const rowHeight = Math.max(LEGEND.itemHeight, Math.ceil(LEGEND.fontSize * 1.25));
  let rows = 1;
  let x = 0;
  for (const entry of entries) {
    const itemWidth = LEGEND.itemWidth + LEGEND.textGap + measure(entry, LEGEND.fontSize);
    if (x > 0 && x + itemWidth > available) {
      rows += 1;
      x = 0;
    }
    x += itemWidth + LEGEND.itemGap;
  }
  return rows * rowHeight + (rows - 1) * LEGEND.itemGap + 2 * LEGEND.padding;
}

/**
 * A category axis's labels: all on one line if they fit; wrapped at spaces onto lines as wide as their band
 * when every word fits it; else turned upright (a word is never cut, and an upright label is only a line
 * tall, so neighbours cannot touch); many categories are thinned instead.
 */
function categoryLabels(axis: Loose, plotWidth: number, measure: MeasureText): Loose {
  const labels = categoryNames(axis);
  const axisLabel = isObject(axis.axisLabel) ? axis.axisLabel : {};
  if (labels.length === 0) return { ...axisLabel, hideOverlap: true };
  const band = plotWidth / labels.length;
  const widest = Math.max(...labels.map((label) => measure(label, AXIS_FONT_SIZE)));
  if (widest + 6 <= band) return { ...axisLabel, interval: 0, hideOverlap: true };
  if (labels.length > MOST_WRAPPED_CATEGORIES) return { ...axisLabel, interval: 'auto', hideOverlap: true };
  const longestWord = Math.max(...labels.flatMap((label) => label.split(/\s+/).map((word) => measure(word, AXIS_FONT_SIZE))));
  if (longestWord + 6 <= band) {
    // A line height above the glyphs' own, so the wrapped lines' boxes do not touch.
    return { ...axisLabel, interval: 0, width: Math.floor(band) - 6, overflow: 'break', lineHeight: LINE_HEIGHT, hideOverlap: true };
  }
  return { ...axisLabel, interval: 0, rotate: 90, hideOverlap: true };
}

const categoryNames = (axis: Loose): string[] =>
  Array.isArray(axis.data) ? axis.data.map((entry) => (isObject(entry) ? String(entry.value ?? '') : String(entry))) : [];

function withAxisDefaults(axis: Loose, horizontal: boolean, plotWidth: number, measure: MeasureText): Loose {
  const shaped: Loose = { ...axis, nameMoveOverlap: true };
  if (axis.type === 'category' && horizontal) shaped.axisLabel = categoryLabels(axis, plotWidth, measure);
  else shaped.axisLabel = { ...(isObject(axis.axisLabel) ? axis.axisLabel : {}), hideOverlap: true };
  // Below the axis by more than half a line, so the first label clears the value axis's lowest one at the corner.
  if (horizontal) shaped.axisLabel = { margin: X_LABEL_MARGIN, ...(shaped.axisLabel as Loose) };
  return shaped;
}

type Formatter = (value: unknown) => string;

const defaultNumber = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** How a bar's value reads: as its series' or the chart's tooltip says, else as the value axis's labels. */
function barValueText(option: Loose, series: Loose, valueAxis: Loose | undefined): Formatter {
  const tooltip = isObject(option.tooltip) ? option.tooltip : {};
  const seriesTooltip = isObject(series.tooltip) ? series.tooltip : {};
  const candidates = [
    seriesTooltip.valueFormatter,
    tooltip.valueFormatter,
    isObject(valueAxis?.axisLabel) ? valueAxis.axisLabel.formatter : undefined,
  ];
  const chosen = candidates.find((candidate) => typeof candidate === 'function') as ((value: unknown) => unknown) | undefined;
  return (value) => {
    const number = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof number !== 'number' || Number.isNaN(number)) return '';
    return chosen ? String(chosen(number)) : defaultNumber.format(number);
  };
}

/**
 * How a bar's value label sits: above the bar (beside it for horizontal bars) when it fits the space between
 * neighbouring bars; upright above the bar when it does not (a line's height wide, so neighbours never
 * touch); inside a stacked segment only when it fits across it.
 */
type BarLabelPlacement = 'beside' | 'upright' | 'inside' | 'none';

function labelledBar(
  option: Loose,
  series: Loose,
  valueAxis: Loose | undefined,
  placement: BarLabelPlacement,
  horizontalBars: boolean,
): Loose {
  if (placement === 'none' || (isObject(series.label) && series.label.show === false)) return series;
  const text = barValueText(option, series, valueAxis);
  const where =
    placement === 'inside'
      ? { position: 'inside', color: '#ffffff' }
      : placement === 'upright'
        ? { position: 'top', rotate: 90, align: 'left', verticalAlign: 'middle', distance: 4 }
        : { position: horizontalBars ? 'right' : 'top' };
  return {
    ...series,
    label: {
      show: true,
      fontSize: BAR_LABEL_FONT_SIZE,
      ...where,
      formatter: (parameters: { value?: unknown }) => text(parameters.value),
      ...(isObject(series.label) ? series.label : {}),
    },
    // A label with no room (a short stacked segment) is left out rather than drawn over another.
    labelLayout: { hideOverlap: true, ...(isObject(series.labelLayout) ? series.labelLayout : {}) },
  };
}

/** The widest value label of the chart's bars, as formatted. */
function widestBarLabel(option: Loose, bars: Loose[], valueAxis: Loose | undefined, measure: MeasureText): number {
  let widest = 0;
  for (const series of bars) {
    const text = barValueText(option, series, valueAxis);
    for (const value of Array.isArray(series.data) ? series.data : []) {
      const raw = isObject(value) ? value.value : value;
      widest = Math.max(widest, measure(text(raw), BAR_LABEL_FONT_SIZE));
    }
  }
  return widest;
}

function barLabelPlacement(
  option: Loose,
  bars: Loose[],
  valueAxis: Loose | undefined,
  categoryAxis: Loose | undefined,
  length: number,
  horizontalBars: boolean,
  measure: MeasureText,
): BarLabelPlacement {
  // Bars side by side in a category: one per stack, one per unstacked series (ECharts' default gaps:
  // 20% of the band between categories, 30% of a bar between bars).
  const sideBySide = new Set(bars.map((entry, index) => (typeof entry.stack === 'string' ? `stack:${entry.stack}` : `bar:${index}`))).size;
  const band = length / (categoryAxis ? Math.max(1, categoryNames(categoryAxis).length) : 1);
  const barWidth = (band * 0.8) / (sideBySide + 0.3 * (sideBySide - 1));
  const spacing = sideBySide === 1 ? band : barWidth * 1.3;
  if (spacing < NARROWEST_LABELLED_BAR) return 'none';
  if (horizontalBars) return 'beside';
  const label = widestBarLabel(option, bars, valueAxis, measure) + 4;
  const stacked = bars.some((entry) => typeof entry.stack === 'string');
  if (stacked) return label <= barWidth ? 'inside' : 'none';
  return label <= spacing ? 'beside' : 'upright';
}

/** The option as drawn at `width` pixels. Charts without axes (calendars) only get the legend's placement. */
export function adaptChartOption(option: ChartOption, width: number, measure: MeasureText): ChartOption {
  const source = option as Loose;
  const adapted: Loose = { ...source };
  const legend = isObject(source.legend) && source.legend.show !== false ? source.legend : undefined;
  let legendSpace = 0;
  if (legend) {
    // Its own position is dropped: below the plot is the one place wrapped rows cannot cover an axis name.
    const rest = Object.fromEntries(Object.entries(legend).filter(([key]) => key !== 'top' && key !== 'left' && key !== 'right'));
    legendSpace = legendHeight(legendEntries(source, legend), width, measure);
    adapted.legend = { ...rest, type: 'plain', orient: 'horizontal', left: 'center', bottom: 0 };
  }

  const xAxes = asList(source.xAxis);
  const yAxes = asList(source.yAxis);
  if (xAxes.length === 0 || yAxes.length === 0) return adapted as ChartOption;

  const grid = isObject(source.grid) ? source.grid : {};
  const right = typeof grid.right === 'number' ? grid.right : 16;
  adapted.grid = {
    ...grid,
    // The grid's box holds the axis labels and names too, so nothing spills into the legend or off the chart.
    left: EDGE,
    right,
    top: EDGE,
    bottom: legend ? legendSpace + GAP : EDGE,
    outerBoundsMode: 'same',
    outerBoundsContain: 'all',
  };
  const plotWidth = Math.max(1, width - EDGE - right - 48);
  const barsAreHorizontal = yAxes.some((axis) => axis.type === 'category');
  const shapedX = xAxes.map((axis) => withAxisDefaults(axis, true, plotWidth, measure));
  const shapedY = yAxes.map((axis) => withAxisDefaults(axis, false, plotWidth, measure));
  // A long name under the plot wraps to the plot's width (what the value or category labels beside it leave of the
  // chart) rather than running past the chart's edge on a phone.
  const yLabelWidth = Math.max(
    48,
    ...yAxes.flatMap((axis) => (axis.type === 'category' ? categoryNames(axis).map((name) => measure(name, AXIS_FONT_SIZE) + 8) : [])),
  );
  const namedPlotWidth = Math.max(1, width - EDGE - right - yLabelWidth);
  for (const axis of shapedX) {
    if (typeof axis.name !== 'string' || axis.name === '' || (axis.nameLocation !== 'middle' && axis.nameLocation !== 'center')) continue;
    if (measure(axis.name, AXIS_FONT_SIZE) <= namedPlotWidth) continue;
    axis.nameTextStyle = {
      ...(isObject(axis.nameTextStyle) ? axis.nameTextStyle : {}),
      width: Math.floor(namedPlotWidth),
      overflow: 'break',
      lineHeight: LINE_HEIGHT,
    };
  }
  adapted.xAxis = Array.isArray(source.xAxis) ? shapedX : shapedX[0];
  adapted.yAxis = Array.isArray(source.yAxis) ? shapedY : shapedY[0];
  const valueAxis = (barsAreHorizontal ? xAxes : yAxes)[0];
  const categoryAxis = (barsAreHorizontal ? yAxes : xAxes)[0];
  const bars = asList(source.series).filter((entry) => entry.type === 'bar');
  const placement =
    bars.length === 0
      ? 'none'
      : barLabelPlacement(
          source,
          bars,
          valueAxis,
          categoryAxis,
          barsAreHorizontal ? LEAST_PLOT_HEIGHT : plotWidth,
          barsAreHorizontal,
          measure,
        );
  const series = asList(source.series).map((entry) =>
    entry.type === 'bar' ? labelledBar(source, entry, valueAxis, placement, barsAreHorizontal) : entry,
  );
  // Room above the tallest bar for its upright label.
  if (placement === 'upright' && valueAxis && valueAxis.max === undefined) {
    const index = yAxes.indexOf(valueAxis);
    const shaped = (Array.isArray(adapted.yAxis) ? adapted.yAxis : [adapted.yAxis]) as Loose[];
    shaped[index] = { ...shaped[index], boundaryGap: [0, '20%'] };
    adapted.yAxis = Array.isArray(source.yAxis) ? shaped : shaped[0];
  }
  adapted.series = Array.isArray(source.series) ? series : series[0];
  return adapted as ChartOption;
}

/**
 * The height a chart needs so that its plot keeps LEAST_PLOT_HEIGHT below its legend's rows (a phone's
 * legend can take 100 px of a 288 px chart); 0 for a chart without axes.
 */
export function minimumChartHeight(adapted: ChartOption): number {
  const grid = (adapted as Loose).grid;
  if (!isObject(grid) || grid.outerBoundsMode !== 'same' || typeof grid.bottom !== 'number' || typeof grid.top !== 'number') return 0;
  return grid.top + grid.bottom + LEAST_PLOT_HEIGHT;
}
