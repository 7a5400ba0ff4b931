import { formatCount, formatPercent } from '@/lib/format';
import { SuppressedCell } from '@/lib/components/suppressed-cell';

/**
 * A distribution as a table of bins with a bar each (the table is its own text equivalent). A null count is
 * hidden (too few patients) and reads "<11". Shared by the message store's and the chat export's reply times.
 */
export function Distribution({
  labels,
  counts,
  caption,
  testId,
}: {
  labels: readonly string[];
  counts: readonly (number | null)[];
  caption: string;
  testId?: string;
}) {
  const total = counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
  const max = Math.max(0, ...counts.map((count) => count ?? 0));
  return (
    <table className="w-full max-w-2xl text-left text-sm" data-testid={testId}>
      <caption className="mb-2 text-left text-sm text-muted">{caption}</caption>
      <thead>
        <tr className="border-b border-separator">
          <th scope="col" className="py-1 pr-3">
            Bin
          </th>
          <th scope="col" className="w-1/2 py-1 pr-3">
            <span className="sr-only">Bar</span>
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Count
          </th>
          <th scope="col" className="py-1 text-right">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {labels.map((label, index) => {
          const count = counts[index] ?? null;
          return (
            <tr key={label} className="border-b border-separator">
              <th scope="row" className="py-1 pr-3 font-normal">
                {label}
              </th>
              <td className="py-1 pr-3" aria-hidden="true">
                {count === null ? null : (
                  <div className="h-3 rounded bg-accent" style={{ width: `${max === 0 ? 0 : (count / max) * 100}%` }} />
                )}
              </td>
              <td className="py-1 pr-3 text-right tabular-nums">{count === null ? <SuppressedCell /> : formatCount(count)}</td>
              <td className="py-1 text-right tabular-nums">{count === null || total === 0 ? '' : formatPercent(count / total)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "42 min", "3.5 h", "2.1 days": a duration in minutes, readable. */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  if (minutes < 90) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${(minutes / 60).toFixed(1)} h`;
  return `${(minutes / 1440).toFixed(1)} days`;
}
