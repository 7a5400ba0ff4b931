import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditPage, hiddenFigures, type PageCell, type PageDescription, type SumRelation, suppressPage } from './page-suppression';

const THRESHOLD = 11;
const isSmall = (count: number) => count > 0 && count < THRESHOLD;

/**
 * A page of several tables sharing totals, as the compliance journey has them: a persona × month grid with
 * row totals (the persona sizes, also listed in a second table), month totals and a grand total, and a
 * product table over the same grand total (optionally with its own product × month grid); the cohort's
 * synthetic count beside it, its real count never shown.
 */
type RandomPage = { page: PageDescription; published: Set<string> };

const countArbitrary = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 12 }),
  fc.integer({ min: 0, max: 60 }),
  fc.integer({ min: 100, max: 400 }),
);

const pageArbitrary = fc
  .record({
    personas: fc.integer({ min: 1, max: 4 }),
    months: fc.integer({ min: 1, max: 4 }),
    products: fc.integer({ min: 1, max: 3 }),
    grid: fc.array(countArbitrary, { minLength: 16, maxLength: 16 }),
    productShares: fc.array(fc.nat({ max: 100 }), { minLength: 12, maxLength: 12 }),
    synthetic: fc.nat({ max: 100 }),
    productGrid: fc.boolean(),
  })
  .map(({ personas, months, products, grid, productShares, synthetic, productGrid }): RandomPage => {
    const cells = new Map<string, number>();
    const sums: SumRelation[] = [];
    const cell = (id: string, count: number) => {
      cells.set(id, count);
      return id;
    };
    const persona = (p: number) => `persona:${p}`;
    const n = (p: number, m: number) => grid[p * 4 + m]!;
    const monthTotal = (m: number) => Array.from({ length: personas }, (_, p) => n(p, m)).reduce((a, b) => a + b, 0);
    for (let p = 0; p < personas; p += 1) {
      for (let m = 0; m < months; m += 1) cell(`pm:${p}:${m}`, n(p, m));
      cell(
        persona(p),
        Array.from({ length: months }, (_, m) => n(p, m)).reduce((a, b) => a + b, 0),
      );
      sums.push({ total: persona(p), parts: Array.from({ length: months }, (_, m) => `pm:${p}:${m}`) });
    }
    let grand = 0;
    for (let m = 0; m < months; m += 1) {
      cell(`month:${m}`, monthTotal(m));
      grand += monthTotal(m);
      sums.push({ total: `month:${m}`, parts: Array.from({ length: personas }, (_, p) => `pm:${p}:${m}`) });
    }
    cell('all', grand);
    sums.push({ total: 'all', parts: Array.from({ length: personas }, (_, p) => persona(p)) });
    sums.push({ total: 'all', parts: Array.from({ length: months }, (_, m) => `month:${m}`) });

    // Products split each month's patients (so they share the month totals and the grand total).
    const productMonth = (q: number, m: number) => {
      const total = monthTotal(m);
      const weights = Array.from({ length: products }, (_, k) => productShares[k * 4 + m]! + 1);
      const weightSum = weights.reduce((a, b) => a + b, 0);
      const shares = weights.map((weight) => Math.floor((total * weight) / weightSum));
      shares[products - 1] = total - shares.slice(0, -1).reduce((a, b) => a + b, 0);
      return shares[q]!;
    };
    for (let q = 0; q < products; q += 1) {
      const size = Array.from({ length: months }, (_, m) => productMonth(q, m)).reduce((a, b) => a + b, 0);
      cell(`product:${q}`, size);
      if (productGrid) {
        for (let m = 0; m < months; m += 1) cell(`qm:${q}:${m}`, productMonth(q, m));
        sums.push({ total: `product:${q}`, parts: Array.from({ length: months }, (_, m) => `qm:${q}:${m}`) });
      }
    }
    sums.push({ total: 'all', parts: Array.from({ length: products }, (_, q) => `product:${q}`) });
    if (productGrid) {
      for (let m = 0; m < months; m += 1)
        sums.push({ total: `month:${m}`, parts: Array.from({ length: products }, (_, q) => `qm:${q}:${m}`) });
    }
    const syntheticCount = Math.min(synthetic, grand);
    const pageCells: PageCell[] = [...cells].map(([id, count]) => ({ id, count }));
    pageCells.push({ id: 'synthetic', count: syntheticCount }, { id: 'real', count: grand - syntheticCount, display: 'never' });
    sums.push({ total: 'all', parts: ['synthetic', 'real'] });
    return {
      page: { cells: pageCells, sums },
      published: new Set(pageCells.filter((entry) => entry.display !== 'never').map((entry) => entry.id)),
    };
  });

/** The adversary of the security probe: substitutes every shown value and solves any relation left with one unknown, again and again. */
function substitute(page: PageDescription, shown: ReadonlyMap<string, number>): Map<string, number> {
  const known = new Map(shown);
  let progress = true;
  while (progress) {
    progress = false;
    for (const relation of page.sums) {
      const members = [relation.total, ...relation.parts];
      const unknown = members.filter((id) => !known.has(id));
      if (unknown.length !== 1) continue;
      const [missing] = unknown as [string];
      const partsKnown = relation.parts.filter((id) => id !== missing).reduce((sum, id) => sum + known.get(id)!, 0);
      known.set(missing, missing === relation.total ? partsKnown : known.get(relation.total)! - partsKnown);
      progress = true;
    }
  }
  return known;
}

/** A stronger adversary: also uses the labels (“<11” is 1–10, “suppressed” at least 11) and narrows bounds relation by relation. */
function readerIntervals(
  page: PageDescription,
  hidden: ReadonlyMap<string, 'small' | 'complementary'>,
): Map<string, { min: number; max: number }> {
  const bounds = new Map<string, { min: number; max: number }>();
  for (const entry of page.cells) {
    const reason = hidden.get(entry.id);
    if (entry.display === 'never') bounds.set(entry.id, { min: 0, max: Infinity });
    else if (reason === 'small') bounds.set(entry.id, { min: 1, max: THRESHOLD - 1 });
    else if (reason === 'complementary') bounds.set(entry.id, { min: THRESHOLD, max: Infinity });
    else bounds.set(entry.id, { min: entry.count, max: entry.count });
  }
  for (let round = 0; round < 500; round += 1) {
    let changed = false;
    for (const relation of page.sums) {
      const total = bounds.get(relation.total)!;
      const parts = relation.parts.map((id) => bounds.get(id)!);
      const narrowed = [
        { id: relation.total, min: parts.reduce((sum, part) => sum + part.min, 0), max: parts.reduce((sum, part) => sum + part.max, 0) },
        ...relation.parts.map((id, index) => {
          const others = parts.filter((_, other) => other !== index);
          return {
            id,
            min: total.min - others.reduce((sum, part) => sum + part.max, 0),
            max: total.max - others.reduce((sum, part) => sum + part.min, 0),
          };
        }),
      ];
      for (const next of narrowed) {
        const current = bounds.get(next.id)!;
        const min = Math.max(current.min, next.min);
        const max = Math.min(current.max, next.max);
        if (min !== current.min || max !== current.max) {
          bounds.set(next.id, { min, max });
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return bounds;
}

describe('whole-page small-cell suppression', () => {
  it('hides every group of 1–10, leaves no relation with one hidden cell, and lets no reader solve for a hidden cell', () => {
    fc.assert(
      fc.property(pageArbitrary, ({ page, published }) => {
        const result = suppressPage(page);
        expect(result.unresolved).toEqual([]);
        const counts = new Map(page.cells.map((entry) => [entry.id, entry.count]));
        for (const id of published) if (isSmall(counts.get(id)!)) expect(result.hidden.get(id), id).toBe('small');
        for (const [id, reason] of result.hidden) {
          expect(published.has(id)).toBe(true);
          expect(counts.get(id)).toBeGreaterThan(0);
          if (reason === 'complementary') expect(counts.get(id)).toBeGreaterThanOrEqual(THRESHOLD);
        }

        const unknown = (id: string) => result.hidden.has(id) || !published.has(id);
        page.sums.forEach((relation) => {
          const hiddenMembers = [relation.total, ...relation.parts].filter(unknown);
          // One unknown is harmless only when it is a count never shown that is not small (the real patients of a large cohort).
          if (hiddenMembers.length === 1) {
            const [only] = hiddenMembers as [string];
            expect(published.has(only) || isSmall(counts.get(only)!), `${only} alone hidden in ${relation.total}`).toBe(false);
          }
        });

        const shown = new Map([...published].filter((id) => !result.hidden.has(id)).map((id) => [id, counts.get(id)!]));
        const known = substitute(page, shown);
        for (const id of result.hidden.keys()) expect(known.has(id), `${id} recovered by substitution`).toBe(false);
        if (known.has('real')) expect(isSmall(counts.get('real')!)).toBe(false);

        const intervals = readerIntervals(page, result.hidden);
        for (const [id] of result.hidden) {
          const interval = intervals.get(id)!;
          expect(interval.min).toBeLessThanOrEqual(counts.get(id)!);
          expect(interval.max).toBeGreaterThanOrEqual(counts.get(id)!);
          expect(interval.max - interval.min + 1, `${id} narrowed to ${interval.min}–${interval.max}`).toBeGreaterThanOrEqual(
            isSmall(counts.get(id)!) ? 3 : 2,
          );
        }
        expect(auditPage(page, result.hidden)).toMatchObject({ singleHidden: [], narrow: [] });
      }),
      { numRuns: 400 },
    );
  });

  it('hides nothing on a page without small groups', () => {
    fc.assert(
      fc.property(pageArbitrary, ({ page }) => {
        fc.pre(page.cells.every((entry) => !isSmall(entry.count)));
        expect(suppressPage(page).hidden.size).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('hides the 198 too where 1657 − 1457 − 198 would give the hidden 2 (the probe’s example)', () => {
    const page: PageDescription = {
      cells: [
        { id: 'month-1', count: 1657 },
        { id: 'routine', count: 1457 },
        { id: 'sceptic', count: 198 },
        { id: 'forgetful', count: 2 },
      ],
      sums: [{ total: 'month-1', parts: ['routine', 'sceptic', 'forgetful'] }],
    };
    const result = suppressPage(page);
    expect(Object.fromEntries(result.hidden)).toEqual({ forgetful: 'small', sceptic: 'complementary' });
    expect(result.intervals.get('forgetful')).toEqual({ min: 1, max: 10 });
  });

  it('hides a group wherever it is shown, and protects it against every table that shows it', () => {
    // The sceptics are hidden in month 1 (2 patients); in month 2 they are 198 of 1657, and the persona
    // table shows their size: one cell per group makes the month-2 figure a part of the same protection.
    const page: PageDescription = {
      cells: [
        { id: 'all', count: 3314 },
        { id: 'month-1', count: 1657 },
        { id: 'month-2', count: 1657 },
        { id: 'routine:1', count: 1457 },
        { id: 'sceptic:1', count: 2 },
        { id: 'forgetful:1', count: 198 },
        { id: 'routine:2', count: 1457 },
        { id: 'sceptic:2', count: 198 },
        { id: 'forgetful:2', count: 2 },
        { id: 'routine', count: 2914 },
        { id: 'sceptic', count: 200 },
        { id: 'forgetful', count: 200 },
      ],
      sums: [
        { total: 'month-1', parts: ['routine:1', 'sceptic:1', 'forgetful:1'] },
        { total: 'month-2', parts: ['routine:2', 'sceptic:2', 'forgetful:2'] },
        { total: 'all', parts: ['month-1', 'month-2'] },
        { total: 'all', parts: ['routine', 'sceptic', 'forgetful'] },
        { total: 'routine', parts: ['routine:1', 'routine:2'] },
        { total: 'sceptic', parts: ['sceptic:1', 'sceptic:2'] },
        { total: 'forgetful', parts: ['forgetful:1', 'forgetful:2'] },
      ],
    };
    const result = suppressPage(page);
    // The persona sizes would give sceptic:1 = 200 − 198: so the 198s are hidden too, and then the sizes.
    expect(result.hidden.get('sceptic:1')).toBe('small');
    expect(result.hidden.get('forgetful:2')).toBe('small');
    expect(result.hidden.has('sceptic:2')).toBe(true);
    expect(auditPage(page, result.hidden)).toMatchObject({ singleHidden: [], narrow: [] });
    const shown = new Map(page.cells.filter((entry) => !result.hidden.has(entry.id)).map((entry) => [entry.id, entry.count]));
    expect([...substitute(page, shown).keys()].filter((id) => result.hidden.has(id))).toEqual([]);
  });

  it('hides more where a reader’s bounds would pin a small group: 1 beside 11 make 12', () => {
    const page: PageDescription = {
      cells: [
        { id: 'total', count: 42 },
        { id: 'a', count: 1 },
        { id: 'b', count: 11 },
        { id: 'c', count: 30 },
      ],
      sums: [{ total: 'total', parts: ['a', 'b', 'c'] }],
    };
    const result = suppressPage(page);
    expect(Object.fromEntries(result.hidden)).toEqual({ a: 'small', b: 'complementary', c: 'complementary' });
    // Without c hidden, a reader knows a + b = 12, a ≤ 10 and b ≥ 11: a = 1.
    expect(auditPage(page, new Set(['a', 'b'])).narrow).toEqual(['a', 'b']);
  });

  it('uses orderings a reader knows (at risk never grows) to find narrowed groups', () => {
    // Month 3: 14 at risk among the sceptics; month 4: sceptics 12 (≤ 14), forgetful 3, total 215.
    const page: PageDescription = {
      cells: [
        { id: 'sceptic:3', count: 14 },
        { id: 'sceptic:4', count: 12 },
        { id: 'forgetful:4', count: 3 },
        { id: 'routine:4', count: 200 },
        { id: 'all:4', count: 215 },
      ],
      sums: [{ total: 'all:4', parts: ['sceptic:4', 'forgetful:4', 'routine:4'] }],
      orders: [{ smaller: 'sceptic:4', larger: 'sceptic:3' }],
    };
    // Hiding only sceptic:4 leaves it 11–14, so the forgetful group is 1–4: still 4 values, allowed.
    expect(auditPage(page, new Set(['forgetful:4', 'sceptic:4'])).intervals.get('forgetful:4')).toEqual({ min: 1, max: 4 });
    expect(auditPage(page, new Set(['forgetful:4', 'sceptic:4']), { minimumValues: 5 }).narrow).toEqual(['forgetful:4']);
    const strict = suppressPage(page, { minimumValues: 5 });
    expect(strict.intervals.get('forgetful:4')!.max - strict.intervals.get('forgetful:4')!.min + 1).toBeGreaterThanOrEqual(5);
  });

  it('hides a share whose denominator is hidden, and protects a small count that is never shown', () => {
    const page: PageDescription = {
      cells: [
        { id: 'all', count: 40 },
        { id: 'group', count: 40 },
        { id: 'adherent', count: 35, display: 'unlabelled', shownWith: ['group'] },
        { id: 'not-adherent', count: 5, display: 'never' },
      ],
      sums: [
        { total: 'group', parts: ['adherent', 'not-adherent'] },
        { total: 'all', parts: ['group'] },
      ],
    };
    const result = suppressPage(page);
    // 40 − 35 would give the 5 non-adherent patients: the share (its numerator) goes.
    expect(Object.fromEntries(result.hidden)).toEqual({ adherent: 'complementary' });
    expect(result.intervals.get('not-adherent')).toEqual({ min: 0, max: 40 });
    expect([...hiddenFigures({ 'share:group': ['adherent', 'group'], 'median:group': ['group'] }, result.hidden)]).toEqual(['share:group']);
  });

  it('refuses relations that do not add up, and counts that are not counts', () => {
    expect(() =>
      suppressPage({
        cells: [
          { id: 'a', count: 3 },
          { id: 'b', count: 4 },
        ],
        sums: [{ total: 'a', parts: ['b'] }],
      }),
    ).toThrow(RangeError);
    expect(() => suppressPage({ cells: [{ id: 'a', count: -1 }], sums: [] })).toThrow(RangeError);
    expect(() => suppressPage({ cells: [{ id: 'a', count: 1 }], sums: [{ total: 'a', parts: ['missing'] }] })).toThrow(RangeError);
  });
});
