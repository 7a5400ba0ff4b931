import { weekdayLabels } from '@/engine/chat-export';
import { formatCount } from '@/lib/format';
import { SuppressedCell } from '@/lib/components/suppressed-cell';
import { TableScroll } from '@/lib/components/table-scroll';

/**
 * An hour × weekday grid of counts as a table (so a screen reader reads it as one: a row per weekday, a
 * column per hour), shaded by count. A null cell is hidden (too few patients) and reads "<11". Used by the
 * message store's view and the chat-export view alike.
 */
export function HourWeekdayHeatMap({
  cells,
  caption,
  testId,
}: {
  cells: readonly (readonly (number | null)[])[];
  caption: string;
  testId?: string;
}) {
  const max = Math.max(0, ...cells.flat().map((value) => value ?? 0));
  return (
    <TableScroll label="Hour by weekday" testId={testId}>
      <table className="border-collapse text-[11px] tabular-nums">
        <caption className="mb-2 text-left text-sm text-muted">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="pr-2 text-left font-normal text-muted">
              <span className="sr-only">Weekday</span>
            </th>
            {Array.from({ length: 24 }, (_, hour) => (
              <th key={hour} scope="col" className="w-7 font-normal text-muted">
                <span aria-hidden="true">{String(hour).padStart(2, '0')}</span>
                <span className="sr-only">{`${String(hour).padStart(2, '0')}:00`}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weekdayLabels.map((weekday, row) => (
            <tr key={weekday}>
              <th scope="row" className="pr-2 text-left font-normal">
                {weekday.slice(0, 3)}
                <span className="sr-only">{weekday.slice(3)}</span>
              </th>
              {Array.from({ length: 24 }, (_, hour) => {
                // `??` would turn a hidden (null) cell into 0: only a missing cell counts as none.
                const cell = cells[row]?.[hour];
                const value = cell === undefined ? 0 : cell;
                if (value === null)
                  return (
                    <td key={hour} className="h-7 w-7 border border-separator bg-surface text-center">
                      <SuppressedCell />
                    </td>
                  );
                const share = max === 0 ? 0 : value / max;
                // Two bands of one blue, so black text stays readable on the light band and white on the dark one.
                const alpha = value === 0 ? 0 : share < 0.5 ? 0.08 + share : 0.8 + (share - 0.5) * 0.4;
                return (
                  <td
                    key={hour}
                    className="h-7 w-7 border border-separator text-center"
                    style={{ backgroundColor: `rgba(30, 64, 175, ${alpha})`, color: share < 0.5 ? '#000000' : '#ffffff' }}
                  >
                    {value === 0 ? '' : formatCount(value)}
                    {value === 0 ? <span className="sr-only">0</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
