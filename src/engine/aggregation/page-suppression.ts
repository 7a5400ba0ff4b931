/**
 * Small-cell suppression of a whole page at once (DESIGN.md §1). Suppressing each table on its own is not
 * enough: a group hidden in one table can be worked out from another that shows it, or from a total shown
 * elsewhere on the page (1657 patients − 1457 − 198 = the hidden 2). So a page is described as one set of
 * counts — each group once, under one id, however many tables show it — and every additive relation a
 * reader can see between them (rows, columns, months, totals shown anywhere), and cells are hidden until
 * no small group can be worked out from everything the page shows together.
 *
 * Rules, and why:
 * - Primary: a count of 1 to threshold − 1 (1–10) is hidden. Zero is shown: it describes no patient, so
 *   it identifies no one, and hiding zeros would also hide that a group is empty, which readers need; a
 *   zero is never hidden to protect another cell either (a reader who knows these rules knows that a
 *   complementarily hidden cell holds at least `threshold`, so a hidden zero would protect nothing).
 * - Complementary: no relation may have exactly one hidden cell (subtraction would give it). Where one
 *   does, the smallest shown non-zero cell of that relation is hidden too — the total only when it is the
 *   smallest left, which it rarely is, since a total appears in more relations than its parts and hiding
 *   it spreads. The smallest is chosen because it removes the least information from the page.
 * - Interval audit: a reader knows each hidden cell's label (“<11”: 1–10; “suppressed”: at least 11; a
 *   blank figure or an unpublished count: at least 0) and can combine every relation of the page. Bounds
 *   are propagated across all relations (sums and orderings such as “at risk in month 4 ≤ in month 3”)
 *   until nothing narrows further; a small cell must keep at least `minimumValues` possible values (by
 *   default 3, so that the reader can never say “1 or 2”), and every other hidden cell at least two (it
 *   may never be pinned, or it would stop protecting anything). Where a cell is narrower, the smallest
 *   shown non-zero cell nearest to it (in its own relations first, then through the hidden cells around
 *   it) is hidden too, and everything is checked again, until nothing is left to fix.
 *
 * The audit is bounds propagation, the reader's arithmetic of substituting known values and bounds into
 * one relation at a time, repeated; it does not solve the relations as a linear programme, so a reader
 * combining several relations algebraically (e.g. a difference of two sums) may narrow a little more.
 * Requiring the full label width (1–10) is not attainable in general: a small total split into small
 * parts necessarily bounds each part by the total.
 */
import { SMALL_CELL_THRESHOLD } from './small-cell-suppression';

/** How a cell is shown: with a “<11”/“suppressed” label when hidden, as a blank figure (e.g. a share's numerator), or never. */
export type CellDisplay = 'labelled' | 'unlabelled' | 'never';

export type PageCell = {
  id: string;
  count: number;
  /** Default 'labelled'. A 'never' cell is not shown but takes part in relations (e.g. non-adherent = size − adherent). */
  display?: CellDisplay;
  /** The cell is shown only while these are shown too (a share needs its denominator). */
  shownWith?: readonly string[];
};

/** total = the sum of parts; one part makes an equality (the same group shown twice under two ids). */
export type SumRelation = { total: string; parts: readonly string[] };

/** smaller ≤ larger, known to every reader (e.g. patients at risk never grow from one month to the next). */
export type OrderRelation = { smaller: string; larger: string };

export type PageDescription = { cells: readonly PageCell[]; sums: readonly SumRelation[]; orders?: readonly OrderRelation[] };

export type HiddenReason = 'small' | 'complementary';

export type Interval = { min: number; max: number };

export type PageSuppressionOptions = {
  /** Smallest count that may be shown (default 11). */
  threshold?: number;
  /** Possible values a small hidden cell must keep after the audit (default 3; at most threshold − 1). */
  minimumValues?: number;
};

export type PageSuppression = {
  /** Every shown cell that is hidden, and why (cells displayed 'never' are not listed). */
  hidden: ReadonlyMap<string, HiddenReason>;
  /** What a reader can work out of each cell that is not shown. */
  intervals: ReadonlyMap<string, Interval>;
  /** Cells still narrower than required with nothing left to hide (empty in every page seen so far). */
  unresolved: readonly string[];
};

export type PageAudit = {
  intervals: ReadonlyMap<string, Interval>;
  /** Relations (index into `sums`) with exactly one hidden cell that must be protected. */
  singleHidden: readonly number[];
  /** Protected cells whose interval is narrower than required. */
  narrow: readonly string[];
};

type Model = {
  ids: string[];
  index: Map<string, number>;
  counts: number[];
  display: CellDisplay[];
  shownWith: number[][];
  sums: number[][];
  orders: [number, number][];
  /** Relations of each cell: sums as their index, orders as sums.length + their index. */
  relationsOf: number[][];
  threshold: number;
  minimumValues: number;
};

export function suppressPage(page: PageDescription, options: PageSuppressionOptions = {}): PageSuppression {
  const model = buildModel(page, options);
  const { counts, threshold } = model;
  const hidden = new Map<number, HiddenReason>();
  counts.forEach((count, cell) => {
    if (isSmall(count, threshold)) hidden.set(cell, 'small');
  });
  const unresolved = new Set<number>();

  // Each round hides at least one more cell (or gives one up as unresolved), so this ends after at most 2 × cells rounds.
  for (;;) {
    closeShownWith(model, hidden);
    const audit = auditModel(model, hidden, unresolved);
    // Relations that give a cell away by subtraction are fixed all at once (each by its smallest shown cell).
    let fixed = false;
    for (const relation of audit.singleHidden) {
      const members = model.sums[relation]!;
      if (members.filter((cell) => isUnknown(model, hidden, cell)).length !== 1) continue; // fixed by an earlier pick
      const candidate = smallestShown(model, hidden, members);
      if (candidate === undefined) continue;
      hidden.set(candidate, 'complementary');
      fixed = true;
    }
    if (fixed) continue;
    const single = audit.singleHidden[0];
    const narrow = single === undefined ? audit.narrow[0] : model.sums[single]!.find((cell) => isUnknown(model, hidden, cell))!;
    if (narrow === undefined) {
      const intervals = new Map<string, Interval>();
      audit.bounds.lo.forEach((lo, cell) => {
        if (hidden.has(cell) || model.display[cell] === 'never') intervals.set(model.ids[cell]!, { min: lo, max: audit.bounds.hi[cell]! });
      });
      const hiddenById = new Map<string, HiddenReason>();
      for (const [cell, reason] of hidden) if (model.display[cell] !== 'never') hiddenById.set(model.ids[cell]!, reason);
      return { hidden: hiddenById, intervals, unresolved: [...unresolved].map((cell) => model.ids[cell]!) };
    }
    // A relation giving a cell away: hide the smallest other cell it shows; a narrow cell: the nearest smallest.
    const candidate =
      (single === undefined
        ? smallestShown(model, hidden, [...explanation(model, audit.bounds, narrow)])
        : smallestShown(model, hidden, model.sums[single]!)) ?? nearestShown(model, hidden, narrow);
    if (candidate === undefined) unresolved.add(narrow);
    else hidden.set(candidate, 'complementary');
  }
}

/** Checks a given set of hidden cells against the page (for tests and for audits of pages suppressed elsewhere). */
export function auditPage(
  page: PageDescription,
  hidden: ReadonlyMap<string, HiddenReason> | ReadonlySet<string>,
  options: PageSuppressionOptions = {},
): PageAudit {
  const model = buildModel(page, options);
  const hiddenCells = new Map<number, HiddenReason>();
  for (const id of hidden.keys()) {
    const cell = model.index.get(id);
    if (cell === undefined) throw new RangeError(`Unknown cell ${id}`);
    hiddenCells.set(cell, isSmall(model.counts[cell]!, model.threshold) ? 'small' : 'complementary');
  }
  const audit = auditModel(model, hiddenCells, new Set());
  const intervals = new Map<string, Interval>();
  audit.bounds.lo.forEach((lo, cell) => intervals.set(model.ids[cell]!, { min: lo, max: audit.bounds.hi[cell]! }));
  return { intervals, singleHidden: audit.singleHidden, narrow: audit.narrow.map((cell) => model.ids[cell]!) };
}

/**
 * Derived figures (shares, medians, survival) hidden because a count they rest on is hidden: a share
 * or a median of a hidden group would give the group away, or narrow it.
 */
export function hiddenFigures<Figure extends string>(
  figures: Readonly<Record<Figure, readonly string[]>>,
  hidden: { has(id: string): boolean },
): Set<Figure> {
  const result = new Set<Figure>();
  for (const figure of Object.keys(figures) as Figure[]) {
    if (figures[figure].some((cell) => hidden.has(cell))) result.add(figure);
  }
  return result;
}

function isSmall(count: number, threshold: number): boolean {
  return count > 0 && count < threshold;
}

function buildModel(page: PageDescription, options: PageSuppressionOptions): Model {
  const threshold = options.threshold ?? SMALL_CELL_THRESHOLD;
  const minimumValues = Math.max(1, Math.min(options.minimumValues ?? 3, threshold - 1));
  const index = new Map<string, number>();
  page.cells.forEach((cell, position) => {
    if (index.has(cell.id)) throw new RangeError(`Cell ${cell.id} is listed twice: a group shown in several tables is one cell`);
    if (!Number.isInteger(cell.count) || cell.count < 0) throw new RangeError(`Cell ${cell.id} has an invalid count: ${cell.count}`);
    index.set(cell.id, position);
  });
  const cellOf = (id: string) => {
    const cell = index.get(id);
    if (cell === undefined) throw new RangeError(`A relation names an unknown cell ${id}`);
    return cell;
  };
  const counts = page.cells.map((cell) => cell.count);
  const sums = page.sums.map((relation) => [cellOf(relation.total), ...relation.parts.map(cellOf)]);
  sums.forEach((members, position) => {
    const parts = members.slice(1).reduce((sum, cell) => sum + counts[cell]!, 0);
    if (parts !== counts[members[0]!])
      throw new RangeError(
        `Relation ${position} does not add up: ${page.sums[position]!.total} is ${counts[members[0]!]}, its parts ${parts}`,
      );
    if (new Set(members).size !== members.length) throw new RangeError(`Relation ${position} names a cell twice`);
  });
  const orders = (page.orders ?? []).map((order): [number, number] => {
    const pair: [number, number] = [cellOf(order.smaller), cellOf(order.larger)];
    if (counts[pair[0]]! > counts[pair[1]]!) throw new RangeError(`Order ${order.smaller} ≤ ${order.larger} does not hold`);
    return pair;
  });
  const relationsOf: number[][] = counts.map(() => []);
  sums.forEach((members, relation) => members.forEach((cell) => relationsOf[cell]!.push(relation)));
  orders.forEach((pair, order) => pair.forEach((cell) => relationsOf[cell]!.push(sums.length + order)));
  return {
    ids: page.cells.map((cell) => cell.id),
    index,
    counts,
    display: page.cells.map((cell) => cell.display ?? 'labelled'),
    shownWith: page.cells.map((cell) => (cell.shownWith ?? []).map(cellOf)),
    sums,
    orders,
    relationsOf,
    threshold,
    minimumValues,
  };
}

const isUnknown = (model: Model, hidden: ReadonlyMap<number, HiddenReason>, cell: number) =>
  hidden.has(cell) || model.display[cell] === 'never';

/** A cell shown with a hidden one (a share whose denominator is hidden) is hidden too, transitively. */
function closeShownWith(model: Model, hidden: Map<number, HiddenReason>) {
  let changed = true;
  while (changed) {
    changed = false;
    model.shownWith.forEach((needs, cell) => {
      if (!hidden.has(cell) && needs.some((need) => isUnknown(model, hidden, need))) {
        hidden.set(cell, 'complementary');
        changed = true;
      }
    });
  }
}

/** A cell whose exact value must stay unknown: any small one, and every other hidden one but zeros (a zero identifies no one). */
function isProtected(model: Model, hidden: ReadonlyMap<number, HiddenReason>, cell: number): boolean {
  return model.counts[cell]! > 0 && (hidden.has(cell) || isSmall(model.counts[cell]!, model.threshold));
}

/** Each cell's bounds, and the relation that last narrowed each bound (−1: its shown value or label). */
type Bounds = { lo: number[]; hi: number[]; loBy: number[]; hiBy: number[] };

function auditModel(model: Model, hidden: ReadonlyMap<number, HiddenReason>, unresolved: ReadonlySet<number>) {
  const singleHidden: number[] = [];
  model.sums.forEach((members, relation) => {
    const unknown = members.filter((cell) => isUnknown(model, hidden, cell));
    if (unknown.length === 1 && isProtected(model, hidden, unknown[0]!) && !unresolved.has(unknown[0]!)) singleHidden.push(relation);
  });
  const bounds = readerBounds(model, hidden);
  const narrow: number[] = [];
  model.counts.forEach((count, cell) => {
    if (!isUnknown(model, hidden, cell) || !isProtected(model, hidden, cell) || unresolved.has(cell)) return;
    const required = isSmall(count, model.threshold) ? model.minimumValues : 2;
    if (bounds.hi[cell]! - bounds.lo[cell]! + 1 < required) narrow.push(cell);
  });
  return { singleHidden, narrow, bounds };
}

/** What a reader knows of every cell: shown values, labels, then every relation applied until nothing narrows. */
function readerBounds(model: Model, hidden: ReadonlyMap<number, HiddenReason>): Bounds {
  const { threshold } = model;
  const lo: number[] = [];
  const hi: number[] = [];
  const loBy = model.counts.map(() => -1);
  const hiBy = model.counts.map(() => -1);
  model.counts.forEach((count, cell) => {
    const reason = hidden.get(cell);
    if (model.display[cell] === 'never' || (reason !== undefined && model.display[cell] === 'unlabelled')) {
      lo.push(0);
      hi.push(Infinity);
    } else if (reason === 'small') {
      lo.push(1);
      hi.push(threshold - 1);
    } else if (reason === 'complementary') {
      lo.push(threshold);
      hi.push(Infinity);
    } else {
      lo.push(count);
      hi.push(count);
    }
  });
  const relationCount = model.sums.length + model.orders.length;
  const queued = new Array<boolean>(relationCount).fill(true);
  const queue = Array.from({ length: relationCount }, (_, relation) => relation);
  let head = 0;
  // Bounds only narrow and stay integers; the cap only guards against slow creeping in cycles of relations.
  let budget = 200 * relationCount + 1000;
  let current = -1;
  const tighten = (cell: number, newLo: number, newHi: number) => {
    if (newLo <= lo[cell]! && newHi >= hi[cell]!) return;
    if (newLo > lo[cell]!) {
      lo[cell] = newLo;
      loBy[cell] = current;
    }
    if (newHi < hi[cell]!) {
      hi[cell] = newHi;
      hiBy[cell] = current;
    }
    if (lo[cell]! > hi[cell]!) throw new Error(`Inconsistent bounds for ${model.ids[cell]}`);
    for (const relation of model.relationsOf[cell]!) {
      if (!queued[relation]) {
        queued[relation] = true;
        queue.push(relation);
      }
    }
  };
  while (head < queue.length && budget > 0) {
    budget -= 1;
    const relation = queue[head]!;
    head += 1;
    current = relation;
    queued[relation] = false;
    if (relation >= model.sums.length) {
      const [smaller, larger] = model.orders[relation - model.sums.length]!;
      tighten(larger, lo[smaller]!, Infinity);
      tighten(smaller, 0, hi[larger]!);
      continue;
    }
    const [total, ...parts] = model.sums[relation]! as [number, ...number[]];
    const partsLo = parts.reduce((sum, part) => sum + lo[part]!, 0);
    const partsHiFinite = parts.reduce((sum, part) => sum + (Number.isFinite(hi[part]!) ? hi[part]! : 0), 0);
    const unbounded = parts.filter((part) => !Number.isFinite(hi[part]!)).length;
    const totalLo = lo[total]!;
    const totalHi = hi[total]!;
    tighten(total, partsLo, unbounded > 0 ? Infinity : partsHiFinite);
    for (const part of parts) {
      const ownUnbounded = Number.isFinite(hi[part]!) ? 0 : 1;
      const othersHi = unbounded - ownUnbounded > 0 ? Infinity : partsHiFinite - (ownUnbounded ? 0 : hi[part]!);
      tighten(part, totalLo - othersHi, totalHi - (partsLo - lo[part]!));
    }
  }
  return { lo, hi, loBy, hiBy };
}

/**
 * The shown cells a reader used to narrow `start`, following back the relation that set each bound (for a
 * part's lower bound: the total's lower bound and the other parts' upper bounds, and so on).
 */
function explanation(model: Model, bounds: Bounds, start: number): Set<number> {
  const shownUsed = new Set<number>();
  const seen = new Set<string>();
  const stack: [number, 'lo' | 'hi'][] = [
    [start, 'lo'],
    [start, 'hi'],
  ];
  while (stack.length > 0) {
    const [cell, side] = stack.pop()!;
    const key = `${cell}:${side}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const relation = side === 'lo' ? bounds.loBy[cell]! : bounds.hiBy[cell]!;
    if (relation < 0) {
      if (bounds.lo[cell] === bounds.hi[cell] && bounds.loBy[cell] === -1 && bounds.hiBy[cell] === -1) shownUsed.add(cell);
      continue;
    }
    const opposite = side === 'lo' ? 'hi' : 'lo';
    if (relation >= model.sums.length) {
      // smaller ≤ larger: a larger's lower bound comes from the smaller's, a smaller's upper bound from the larger's.
      const [smaller, larger] = model.orders[relation - model.sums.length]!;
      stack.push(cell === larger ? [smaller, side] : [larger, side]);
      continue;
    }
    const [total, ...parts] = model.sums[relation]! as [number, ...number[]];
    if (cell === total) for (const part of parts) stack.push([part, side]);
    else {
      stack.push([total, side]);
      for (const part of parts) if (part !== cell) stack.push([part, opposite]);
    }
  }
  return shownUsed;
}

/** The shown non-zero cell with the smallest count among `cells` (ties: the first listed). */
function smallestShown(model: Model, hidden: ReadonlyMap<number, HiddenReason>, cells: readonly number[]): number | undefined {
  let best: number | undefined;
  for (const cell of cells) {
    if (isUnknown(model, hidden, cell) || model.counts[cell] === 0) continue;
    if (best === undefined || model.counts[cell]! < model.counts[best]!) best = cell;
  }
  return best;
}

function membersOf(model: Model, relation: number): readonly number[] {
  return relation < model.sums.length ? model.sums[relation]! : model.orders[relation - model.sums.length]!;
}

/** The smallest shown cell in the relations of `start`, else of the hidden cells reached through them, and so on. */
function nearestShown(model: Model, hidden: ReadonlyMap<number, HiddenReason>, start: number): number | undefined {
  const seen = new Set<number>([start]);
  let frontier = [start];
  while (frontier.length > 0) {
    const reached = new Set<number>();
    for (const cell of frontier)
      for (const relation of model.relationsOf[cell]!) for (const member of membersOf(model, relation)) reached.add(member);
    const candidate = smallestShown(model, hidden, [...reached]);
    if (candidate !== undefined) return candidate;
    frontier = [...reached].filter((cell) => !seen.has(cell) && isUnknown(model, hidden, cell));
    frontier.forEach((cell) => seen.add(cell));
  }
  return undefined;
}
