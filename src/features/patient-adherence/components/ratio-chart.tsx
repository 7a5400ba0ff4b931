/**
 * A small SVG chart of values between 0 and 1 (PDC, CMA, share persisting) over a few points in time.
 * Drawn by hand: a handful of lines needs no chart library. The SVG is an image with a summary name;
 * every page that uses it shows the same numbers in a table beside it.
 */

export type ChartSeries = { label: string; values: (number | null)[]; colour: string; dashed?: boolean };

type Props = {
  title: string;
  /** Labels of the x positions (one per value). */
  xLabels: string[];
  series: ChartSeries[];
  /** Draw steps (survival curves) instead of straight segments. */
  step?: boolean;
  /** A horizontal reference line, e.g. 0.8 for "adherent". */
  reference?: { value: number; label: string };
};

const WIDTH = 640;
const HEIGHT = 220;
const PADDING = { left: 40, right: 12, top: 12, bottom: 28 };

export function RatioChart({ title, xLabels, series, step = false, reference }: Props) {
  const innerWidth = WIDTH - PADDING.left - PADDING.right;
  const innerHeight = HEIGHT - PADDING.top - PADDING.bottom;
  const x = (index: number) => PADDING.left + (xLabels.length <= 1 ? 0 : (index / (xLabels.length - 1)) * innerWidth);
  const y = (value: number) => PADDING.top + (1 - Math.max(0, Math.min(1, value))) * innerHeight;
  const labelEvery = Math.max(1, Math.ceil(xLabels.length / 8));

  const pathOf = (values: (number | null)[]) => {
    let path = '';
    let previous: number | null = null;
    values.forEach((value, index) => {
      if (value === null) {
        previous = null;
        return;
      }
      if (previous === null) path += `M${x(index)},${y(value)}`;
      else if (step) path += `H${x(index)}V${y(value)}`;
      else path += `L${x(index)},${y(value)}`;
      previous = value;
    });
    return path;
  };

  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full max-w-3xl" role="img" aria-label={`${title} (the table below lists the values)`}>
        {[0, 0.25, 0.5, 0.75, 1].map((tick) => (
          <g key={tick}>
            <line x1={PADDING.left} x2={WIDTH - PADDING.right} y1={y(tick)} y2={y(tick)} className="stroke-current text-separator" strokeWidth={1} />
            <text x={PADDING.left - 6} y={y(tick) + 4} textAnchor="end" className="fill-current text-[11px]">
              {tick.toFixed(2)}
            </text>
          </g>
        ))}
        {reference ? (
          <line x1={PADDING.left} x2={WIDTH - PADDING.right} y1={y(reference.value)} y2={y(reference.value)} className="stroke-current text-muted" strokeDasharray="2 4" strokeWidth={1.5} />
        ) : null}
        {xLabels.map((label, index) =>
          index % labelEvery === 0 || index === xLabels.length - 1 ? (
            <text key={label} x={x(index)} y={HEIGHT - 8} textAnchor="middle" className="fill-current text-[11px]">
              {label}
            </text>
          ) : null,
        )}
        {series.map((entry) => (
          <path key={entry.label} d={pathOf(entry.values)} fill="none" stroke={entry.colour} strokeWidth={2.5} strokeDasharray={entry.dashed ? '6 4' : undefined} />
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-sm">
        {series.map((entry) => (
          <span key={entry.label} className="flex items-center gap-2">
            <svg width="24" height="8" aria-hidden="true">
              <line x1="0" x2="24" y1="4" y2="4" stroke={entry.colour} strokeWidth={3} strokeDasharray={entry.dashed ? '6 4' : undefined} />
            </svg>
            {entry.label}
          </span>
        ))}
        {reference ? <span className="text-muted">Dotted line: {reference.label}</span> : null}
      </figcaption>
    </figure>
  );
}

/** Line colours with at least 3:1 contrast on white (non-text contrast), told apart by dashes as well. */
export const SERIES_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c2d12', '#6d28d9', '#0f766e', '#a16207', '#be185d'];
