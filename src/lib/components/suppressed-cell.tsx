/**
 * The one way a page shows a figure hidden by small-cell suppression (DESIGN.md §1), and the one sentence
 * that explains it, once per page. A group of 1–10 patients reads "<11"; a larger group hidden so that a
 * small one cannot be worked out by subtraction reads "suppressed"; a rate or mean over a hidden group is
 * "hidden" with it. The CSV exports write the same words (SUPPRESSED_LABEL).
 */
import type { ReactNode } from 'react';
import { SMALL_CELL_THRESHOLD, SUPPRESSED_LABEL } from '@/engine/aggregation/small-cell-suppression';

export type SuppressedReason = 'small' | 'complementary' | 'derived';

const words: Record<SuppressedReason, string> = {
  small: SUPPRESSED_LABEL,
  complementary: 'suppressed',
  derived: 'hidden',
};

/** The text of a hidden figure, for places that need a string (attributes, chart tooltips). */
export function suppressedText(reason: SuppressedReason = 'small'): string {
  return words[reason];
}

/** A hidden figure in a table cell or a sentence. */
export function SuppressedCell({ reason = 'small' }: { reason?: SuppressedReason }) {
  return (
    <span className="text-muted" data-suppressed={reason}>
      {words[reason]}
    </span>
  );
}

/**
 * A count as the viewer may see it: the number, or the hidden figure's words. Takes the engine's
 * ShownCount (or anything with `count`, `suppressed` and `reason`).
 */
export function ShownCountText({
  value,
  format,
}: {
  value: { count: number | null; suppressed: boolean; reason: 'small' | 'complementary' | null };
  format: (count: number) => string;
}) {
  if (value.suppressed || value.count === null)
    return <SuppressedCell reason={value.reason === 'complementary' ? 'complementary' : 'small'} />;
  return <>{format(value.count)}</>;
}

/**
 * The explanation, once per page where anything can be hidden for the viewer; `children` adds what is
 * particular to the page (e.g. that curves stop where fewer than 11 patients remain).
 */
export function SuppressionNote({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <p className={className ?? 'max-w-3xl text-sm text-muted'} data-testid="suppression-note">
      To protect privacy, no group of fewer than {SMALL_CELL_THRESHOLD} patients is shown: such a count reads “{SUPPRESSED_LABEL}”, a larger
      one hidden so that a small one cannot be worked out by subtraction reads “suppressed”, and a rate or mean over a hidden group reads
      “hidden”.{children ? <> {children}</> : null}
    </p>
  );
}
