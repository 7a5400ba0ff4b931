/**
 * Small-cell suppression (DESIGN.md §1): an aggregate never shows a group of 1–10 patients, and never
 * shows enough that such a group could be worked out by subtracting the shown groups from a shown total
 * (complementary suppression), as public health agencies publish their tables.
 *
 * Groups must partition the total (each patient in one group). A reader who knows these rules knows
 * that a "<11" group holds 1–10 patients and a complementarily hidden one at least 11, and from the total
 * what the hidden groups sum to. The hidden set is safe when, under those bounds, every hidden group
 * could still hold at least two different values (e.g. two hidden groups summing to 2 would each be 1).
 */

export const SMALL_CELL_THRESHOLD = 11;

export const SUPPRESSED_LABEL = `<${SMALL_CELL_THRESHOLD}`;

export type GroupCount<Key extends string = string> = { key: Key; count: number };

export type ShownCount = {
  /** null when suppressed. */
  count: number | null;
  suppressed: boolean;
  /** The count as text, "<11", or "suppressed" (hidden so that a smaller group cannot be derived). */
  display: string;
  /** Why it is hidden: its own size (primary) or to protect another group (complementary). */
  reason: 'small' | 'complementary' | null;
};

export type SuppressedGroup<Key extends string = string> = ShownCount & { key: Key };

export type SuppressionResult<Key extends string = string> = {
  groups: SuppressedGroup<Key>[];
  /** Present when a total was given. */
  total: ShownCount | null;
};

export type SuppressionOptions<Key extends string = string> = {
  groups: readonly GroupCount<Key>[];
  /** The total shown beside the groups (by default none): subtraction from it must reveal nothing. */
  total?: number;
  /** Smallest count that may be shown (default 11). */
  threshold?: number;
};

/** Whether a count of patients is too small to show on its own (1 to threshold − 1; zero may be shown). */
export function isSmallCell(count: number, threshold: number = SMALL_CELL_THRESHOLD): boolean {
  return count > 0 && count < threshold;
}

/** One count shown or hidden on its own (no total to subtract from). */
export function suppressCount(count: number, threshold: number = SMALL_CELL_THRESHOLD): ShownCount {
  return isSmallCell(count, threshold) ? hiddenCount('small', threshold) : shownCount(count);
}

export function suppressSmallCells<Key extends string>(options: SuppressionOptions<Key>): SuppressionResult<Key> {
  const threshold = options.threshold ?? SMALL_CELL_THRESHOLD;
  for (const group of options.groups) {
    if (!Number.isInteger(group.count) || group.count < 0) throw new RangeError(`Group ${group.key} has an invalid count: ${group.count}`);
  }
  const reasons = new Map<number, 'small' | 'complementary'>();
  options.groups.forEach((group, index) => {
    if (isSmallCell(group.count, threshold)) reasons.set(index, 'small');
  });

  let totalShown = options.total !== undefined && !isSmallCell(options.total, threshold);
  if (totalShown && reasons.size > 0) {
    // Hide the next smallest shown groups until the hidden ones cannot be told apart by subtraction.
    const candidates = options.groups
      .map((group, index) => ({ index, count: group.count }))
      .filter((candidate) => candidate.count > 0 && !reasons.has(candidate.index))
      .sort((left, right) => left.count - right.count || left.index - right.index);
    while (!isSafeHiddenSet(hiddenCounts(options.groups, reasons), threshold)) {
      const next = candidates.shift();
      if (next === undefined) break;
      reasons.set(next.index, 'complementary');
    }
    // Every non-empty group is hidden and still too few to protect each other: hide the total instead.
    if (!isSafeHiddenSet(hiddenCounts(options.groups, reasons), threshold)) totalShown = false;
  }

  const groups = options.groups.map((group, index) => {
    const reason = reasons.get(index);
    return { key: group.key, ...(reason === undefined ? shownCount(group.count) : hiddenCount(reason, threshold)) };
  });
  const total =
    options.total === undefined
      ? null
      : totalShown
        ? shownCount(options.total)
        : hiddenCount(isSmallCell(options.total, threshold) ? 'small' : 'complementary', threshold);
  return { groups, total };
}

/** A share (e.g. of patients with PDC ≥ 0.8) is shown only when its numerator and denominator may be. */
export function isShareShowable(numerator: number, denominator: number, threshold: number = SMALL_CELL_THRESHOLD): boolean {
  return !isSmallCell(denominator, threshold) && !isSmallCell(numerator, threshold) && !isSmallCell(denominator - numerator, threshold);
}

type HiddenCell = { count: number; reason: 'small' | 'complementary' };

function hiddenCounts(groups: readonly GroupCount[], reasons: ReadonlyMap<number, 'small' | 'complementary'>): HiddenCell[] {
  return [...reasons].map(([index, reason]) => ({ count: groups[index]!.count, reason }));
}

/** What a reader knows of a hidden cell from its label: 1 to threshold − 1, or at least the threshold. */
export function hiddenCellBounds(reason: 'small' | 'complementary', threshold: number): { min: number; max: number } {
  return reason === 'small' ? { min: 1, max: threshold - 1 } : { min: threshold, max: Infinity };
}

/**
 * Whether no hidden cell can be pinned to one value, knowing their sum (total − shown groups) and each
 * cell's bounds: the values a cell can take form the interval [sum − others' maxima, sum − others' minima]
 * clipped to its own bounds, and it must hold two values.
 */
function isSafeHiddenSet(cells: readonly HiddenCell[], threshold: number): boolean {
  if (cells.length === 0) return true;
  const bounds = cells.map((cell) => hiddenCellBounds(cell.reason, threshold));
  const sum = cells.reduce((total, cell) => total + cell.count, 0);
  const minimumSum = bounds.reduce((total, bound) => total + bound.min, 0);
  // Finite maxima and unbounded cells apart, so that "others' maxima" never computes Infinity − Infinity.
  const finiteMaximumSum = bounds.reduce((total, bound) => total + (Number.isFinite(bound.max) ? bound.max : 0), 0);
  const unboundedCells = bounds.filter((bound) => !Number.isFinite(bound.max)).length;
  return bounds.every((bound) => {
    const ownUnbounded = Number.isFinite(bound.max) ? 0 : 1;
    const othersMaximum = unboundedCells - ownUnbounded > 0 ? Infinity : finiteMaximumSum - (ownUnbounded ? 0 : bound.max);
    const lowest = Math.max(bound.min, sum - othersMaximum);
    const highest = Math.min(bound.max, sum - (minimumSum - bound.min));
    return highest > lowest;
  });
}

/** A count shown as it is (views that need no suppression, such as a clinician's own patients). */
export function shownCount(count: number): ShownCount {
  return { count, suppressed: false, display: String(count), reason: null };
}

/** A small group reads "<11"; one hidden to protect another reads "suppressed" (it is not small). */
export function hiddenCount(reason: 'small' | 'complementary', threshold: number = SMALL_CELL_THRESHOLD): ShownCount {
  return { count: null, suppressed: true, display: reason === 'small' ? `<${threshold}` : 'suppressed', reason };
}
