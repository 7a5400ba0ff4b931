import type { PortalTable } from '../portal-tables';

/** The hue of each dose-timing heat map: confirmed doses green, missed doses red. */
const hues = { 'doses-confirmed': '22 163 74', 'doses-missed': '220 38 38' } as const;

/** Strongest background: text keeps at least 4.5:1 contrast on it in the light and the dark theme. */
const MAX_ALPHA = 0.5;

/**
 * The background of each cell of a heat map table (the dose-timing tables; null for any other table): shown counts
 * shaded in proportion to the table's largest shown count; hidden cells ("<11", suppressed) and zeros unshaded, so
 * the shade gives away nothing the figures do not.
 */
export function heatMapShades(table: PortalTable): (string | null)[][] | null {
  const hue = hues[table.id as keyof typeof hues];
  if (hue === undefined) return null;
  const largest = Math.max(0, ...table.rows.flatMap((row) => row.values.map((value) => (value.kind === 'count' ? value.value : 0))));
  return table.rows.map((row) =>
    row.values.map((value) =>
      value.kind === 'count' && value.value > 0 && largest > 0 ? `rgb(${hue} / ${((value.value / largest) * MAX_ALPHA).toFixed(3)})` : null,
    ),
  );
}
