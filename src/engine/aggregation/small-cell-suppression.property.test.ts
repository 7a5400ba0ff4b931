import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hiddenCellBounds, isShareShowable, SMALL_CELL_THRESHOLD, suppressCount, suppressSmallCells } from './small-cell-suppression';

const countArbitrary = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 60 }));
const groupsArbitrary = fc
  .array(countArbitrary, { minLength: 0, maxLength: 6 })
  .map((counts) => counts.map((count, index) => ({ key: `g${index}`, count })));

/**
 * The values each hidden cell could take, found independently of the implementation: every sum the other
 * hidden cells can reach (within what their labels tell) is enumerated as a set.
 */
function possibleValues(bounds: { min: number; max: number }[], hiddenSum: number): number[][] {
  return bounds.map((own, index) => {
    let reachable = new Set<number>([0]);
    bounds.forEach((bound, other) => {
      if (other === index) return;
      const next = new Set<number>();
      for (const partial of reachable) {
        for (let value = bound.min; value <= Math.min(bound.max, hiddenSum); value += 1)
          if (partial + value <= hiddenSum) next.add(partial + value);
      }
      reachable = next;
    });
    const values: number[] = [];
    for (let value = own.min; value <= Math.min(own.max, hiddenSum); value += 1) if (reachable.has(hiddenSum - value)) values.push(value);
    return values;
  });
}

describe('small-cell suppression', () => {
  it('never shows a group of 1–10 patients, and shows every other group unchanged or hides it', () => {
    fc.assert(
      fc.property(groupsArbitrary, fc.boolean(), (groups, withTotal) => {
        const total = groups.reduce((sum, group) => sum + group.count, 0);
        const result = suppressSmallCells({ groups, total: withTotal ? total : undefined });
        result.groups.forEach((shown, index) => {
          const input = groups[index]!;
          expect(shown.key).toBe(input.key);
          if (input.count > 0 && input.count < SMALL_CELL_THRESHOLD) {
            expect(shown).toMatchObject({ suppressed: true, count: null, display: '<11', reason: 'small' });
          } else if (!shown.suppressed) {
            expect(shown.count).toBe(input.count);
            expect(shown.display).toBe(String(input.count));
          } else {
            expect(shown).toMatchObject({ reason: 'complementary', display: 'suppressed' });
            expect(input.count).toBeGreaterThanOrEqual(SMALL_CELL_THRESHOLD);
          }
        });
        if (!withTotal) {
          expect(result.total).toBeNull();
          expect(result.groups.every((group) => group.reason !== 'complementary')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves no hidden group derivable by subtracting the shown groups from a shown total', () => {
    fc.assert(
      fc.property(groupsArbitrary, (groups) => {
        const total = groups.reduce((sum, group) => sum + group.count, 0);
        const result = suppressSmallCells({ groups, total });
        if (result.total === null || result.total.suppressed) {
          // A hidden total leaves nothing to subtract from; it is only hidden when it had to be.
          return;
        }
        const shownSum = result.groups.reduce((sum, group) => sum + (group.count ?? 0), 0);
        const hidden = result.groups.filter((group) => group.suppressed);
        const bounds = hidden.map((group) => hiddenCellBounds(group.reason === 'small' ? 'small' : 'complementary', SMALL_CELL_THRESHOLD));
        for (const values of possibleValues(bounds, total - shownSum)) expect(values.length).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 500 },
    );
  });

  it('hides a total of 1–10 patients, and hides nothing when no group is small', () => {
    fc.assert(
      fc.property(groupsArbitrary, (groups) => {
        const total = groups.reduce((sum, group) => sum + group.count, 0);
        const result = suppressSmallCells({ groups, total });
        if (total > 0 && total < SMALL_CELL_THRESHOLD) expect(result.total?.suppressed).toBe(true);
        if (groups.every((group) => group.count === 0 || group.count >= SMALL_CELL_THRESHOLD)) {
          expect(result.groups.every((group) => !group.suppressed)).toBe(true);
          expect(result.total).toMatchObject({ suppressed: false, count: total });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hides the next smallest group to protect a single small one', () => {
    const result = suppressSmallCells({
      groups: [
        { key: 'a', count: 40 },
        { key: 'b', count: 3 },
        { key: 'c', count: 25 },
      ],
      total: 68,
    });
    expect(result.groups.map((group) => group.display)).toEqual(['40', '<11', 'suppressed']);
    expect(result.total?.display).toBe('68');
  });

  it('protects a group of 1 beside a group of exactly 11 (their sum 12 would pin both)', () => {
    const result = suppressSmallCells({
      groups: [
        { key: 'a', count: 1 },
        { key: 'b', count: 11 },
        { key: 'c', count: 30 },
      ],
      total: 42,
    });
    expect(result.groups.map((group) => group.display)).toEqual(['<11', 'suppressed', 'suppressed']);
  });

  it('shows a single count only when it is 0 or at least 11, and a share only when both parts may be shown', () => {
    expect(suppressCount(0).display).toBe('0');
    expect(suppressCount(7).display).toBe('<11');
    expect(suppressCount(11).display).toBe('11');
    expect(isShareShowable(20, 40)).toBe(true);
    expect(isShareShowable(35, 40)).toBe(false);
    expect(isShareShowable(40, 40)).toBe(true);
    expect(isShareShowable(5, 10)).toBe(false);
  });

  it('refuses negative or fractional counts', () => {
    expect(() => suppressSmallCells({ groups: [{ key: 'a', count: -1 }] })).toThrow(RangeError);
    expect(() => suppressSmallCells({ groups: [{ key: 'a', count: 1.5 }] })).toThrow(RangeError);
  });
});
