import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addOnDay, createRollingCount, totalUpTo } from './rolling-count';

describe('RollingCount', () => {
  it('counts only the days inside the window', () => {
    const count = createRollingCount(7);
    addOnDay(count, 0, 2);
    addOnDay(count, 3, 1);
    expect(totalUpTo(count, 6)).toBe(3);
    expect(totalUpTo(count, 7)).toBe(1);
    expect(totalUpTo(count, 10)).toBe(0);
  });

  it('matches a brute-force sum for any sequence of additions and gaps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 50 }), amount: fc.integer({ min: 0, max: 5 }) }), { maxLength: 60 }),
        (windowDays, steps) => {
          const count = createRollingCount(windowDays);
          const added: { day: number; amount: number }[] = [];
          let day = 0;
          for (const step of steps) {
            day += step.gap;
            addOnDay(count, day, step.amount);
            added.push({ day, amount: step.amount });
            const expected = added.filter((entry) => entry.day > day - windowDays).reduce((sum, entry) => sum + entry.amount, 0);
            expect(totalUpTo(count, day)).toBe(expected);
          }
        },
      ),
    );
  });
});
