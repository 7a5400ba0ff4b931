import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { emptyHeatMap } from '@/engine/chat-export';
import { Distribution, formatMinutes } from './distribution';
import { HourWeekdayHeatMap } from './heat-map';

describe('HourWeekdayHeatMap', () => {
  it('reads as a table of weekdays by hours, and labels hidden cells', () => {
    const cells: (number | null)[][] = emptyHeatMap();
    cells[0]![9] = 12;
    cells[6]![23] = null;
    const html = renderToStaticMarkup(<HourWeekdayHeatMap cells={cells} caption="Replies in UTC." />);
    expect(html).toContain('<caption');
    expect(html).toContain('Replies in UTC.');
    expect(html.match(/data-suppressed="small">&lt;11</g)).toHaveLength(1);
    expect(html.match(/<th scope="row"/g)).toHaveLength(7);
    expect(html.match(/<td/g)).toHaveLength(7 * 24);
    expect(html).toContain('>12<');
    // The darkest cell gets white text, so it stays readable.
    expect(html).toContain('color:#ffffff');
  });
});

describe('Distribution', () => {
  it('shows counts and shares, and a hidden bin as such', () => {
    const html = renderToStaticMarkup(<Distribution labels={['A', 'B', 'C']} counts={[3, 1, null]} caption="Times." />);
    expect(html).toContain('75%');
    expect(html).toContain('25%');
    expect(html).toContain('data-suppressed="small">&lt;11<');
  });

  it('formats minutes readably', () => {
    expect(formatMinutes(null)).toBe('–');
    expect(formatMinutes(0.5)).toBe('30 s');
    expect(formatMinutes(42)).toBe('42 min');
    expect(formatMinutes(210)).toBe('3.5 h');
    expect(formatMinutes(4320)).toBe('3.0 days');
  });
});
