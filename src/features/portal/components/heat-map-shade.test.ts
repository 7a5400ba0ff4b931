import { describe, expect, it } from 'vitest';
import type { PortalTable } from '../portal-tables';
import { heatMapShades } from './heat-map-shade';

const table = (id: string, values: PortalTable['rows'][number]['values'][]): PortalTable => ({
  id,
  title: id,
  population: '',
  columns: ['Weekday', '00:00', '01:00', '02:00'],
  rows: values.map((row, index) => ({ key: String(index), label: `Day ${index}`, values: row })),
});

describe('heatMapShades', () => {
  it('shades shown counts in proportion to the largest, and leaves zeros and hidden cells unshaded', () => {
    const shades = heatMapShades(
      table('doses-missed', [
        [
          { kind: 'count', value: 40 },
          { kind: 'count', value: 0 },
          { kind: 'hidden', label: '<11' },
        ],
        [
          { kind: 'count', value: 20 },
          { kind: 'hidden', label: 'suppressed' },
          { kind: 'count', value: 11 },
        ],
      ]),
    );
    expect(shades).toEqual([
      ['rgb(220 38 38 / 0.500)', null, null],
      ['rgb(220 38 38 / 0.250)', null, 'rgb(220 38 38 / 0.138)'],
    ]);
  });

  it('uses green for confirmed doses, and shades no other table', () => {
    expect(heatMapShades(table('doses-confirmed', [[{ kind: 'count', value: 12 }]]))).toEqual([['rgb(22 163 74 / 0.500)']]);
    expect(heatMapShades(table('by-region', [[{ kind: 'count', value: 12 }]]))).toBeNull();
  });

  it('shades nothing when every count is hidden or zero', () => {
    expect(
      heatMapShades(
        table('doses-missed', [
          [
            { kind: 'hidden', label: '<11' },
            { kind: 'count', value: 0 },
          ],
        ]),
      ),
    ).toEqual([[null, null]]);
  });
});
