import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatNumber,
  formatPercent,
  formatPeriod,
  formatMoney,
  formatRatio,
} from './format';

describe('format', () => {
  it('writes numbers the British way', () => {
    expect(formatCount(12345.6)).toBe('12,346');
    expect(formatDecimal(0.81234, 3)).toBe('0.812');
    expect(formatDecimal(1234.5, 1)).toBe('1,234.5');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(2.567)).toBe('2.57');
  });

  it('writes shares as percentages, rounding the decimal value (not the binary product)', () => {
    expect(formatPercent(0.4823, 1)).toBe('48.2%');
    expect(formatPercent(0.5)).toBe('50%');
    // 0.0045 * 100 is 0.44999… in binary; the share is 0.45%.
    expect(formatPercent(0.0045, 1)).toBe('0.5%');
  });

  it('writes money with the precision its size needs', () => {
    expect(formatMoney(1234.4)).toBe('£1,234');
    expect(formatMoney(123456789)).toBe('£123,456,789');
    expect(formatMoney(12.5)).toBe('£12.50');
    expect(formatMoney(0)).toBe('£0.00');
    expect(formatMoney(0.036)).toBe('£0.036');
    expect(formatMoney(0.0425)).toBe('£0.0425');
    expect(formatMoney(0.04)).toBe('£0.04');
    expect(formatMoney(0.0012)).toBe('£0.0012');
    expect(formatMoney(0.5)).toBe('£0.50');
    expect(formatMoney(-2500)).toBe('-£2,500');
    expect(formatMoney(1234.4, 'USD')).toBe('US$1,234');
  });

  it('writes calendar dates without a time-zone shift, and periods with shared parts once', () => {
    // ICU puts thin spaces around the dash.
    expect(formatDate('2026-03-03')).toBe('3 March 2026');
    expect(formatDate('2026-03-03', { short: true })).toBe('3 Mar 2026');
    expect(formatPeriod('2026-01-01', '2026-12-31').replace(/\s/gu, ' ')).toBe('1 January – 31 December 2026');
    expect(formatPeriod('2025-12-01', '2026-01-31', { short: true }).replace(/\s/gu, ' ')).toBe('1 Dec 2025 – 31 Jan 2026');
  });

  it('writes an instant as toLocaleString("en-GB") did', () => {
    const instant = new Date('2026-11-24T03:15:39Z');
    expect(formatDateTime(instant)).toBe(instant.toLocaleString('en-GB'));
    expect(formatDateTime(instant.toISOString())).toBe(formatDateTime(instant.getTime()));
  });
});

describe('ratios and missing shares', () => {
  it('writes a ratio to two places and says when it is not defined', () => {
    expect(formatRatio(0.7812)).toBe('0.78');
    expect(formatRatio(1)).toBe('1.00');
    expect(formatRatio(null)).toBe('not defined');
  });

  it('writes a missing share as a dash', () => {
    expect(formatPercent(null)).toBe('—');
  });
});
