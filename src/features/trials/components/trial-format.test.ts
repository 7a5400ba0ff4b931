import { describe, expect, it } from 'vitest';
import { formatInterval, formatPValue } from './trial-format';

describe('trial figures as text', () => {
  it('prints small p-values as "p < 0.001" and others to three places', () => {
    expect(formatPValue(0.0004)).toBe('p < 0.001');
    expect(formatPValue(0.0456)).toBe('p = 0.046');
    expect(formatPValue(Number.NaN)).toBe('p not defined');
  });

  it('prints an estimate with its 95% interval, or says it is not defined', () => {
    expect(formatInterval({ estimate: 0.0523, ciLow: 0.0211, ciHigh: 0.0834 })).toBe('0.052 (95% CI 0.021 to 0.083)');
    expect(formatInterval({ estimate: 1.5, ciLow: 1.1, ciHigh: 2.05 }, 2)).toBe('1.50 (95% CI 1.10 to 2.05)');
    expect(formatInterval(null)).toMatch(/not defined/);
  });
});
