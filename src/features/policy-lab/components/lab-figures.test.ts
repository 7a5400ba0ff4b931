import { describe, expect, it } from 'vitest';
import { labActionCount, type LabPersonaArmShares } from '../schemas';
import { armShareSeries, mostChosenArm } from './lab-figures';

function sharesOf(weeks: Record<number, number>[]): LabPersonaArmShares {
  return {
    persona: 'busy-professional',
    patients: 10,
    truthBestActions: [3],
    sharesByWeek: weeks.map((week) => Array.from({ length: labActionCount }, (_, action) => week[action] ?? 0)),
  };
}

describe('mostChosenArm', () => {
  it('takes the arm with the highest mean share over the weeks, never no message', () => {
    const shares = sharesOf([
      { 0: 0.6, 1: 0.3, 3: 0.1 },
      { 0: 0.5, 1: 0.1, 3: 0.4 },
      { 0: 0.5, 1: 0.1, 3: 0.4 },
    ]);
    expect(mostChosenArm(shares, 0, 1)).toEqual({ action: 1, share: 0.3 });
    expect(mostChosenArm(shares, 1, 3)).toEqual({ action: 3, share: 0.4 });
    expect(mostChosenArm({ ...shares, patients: 0 }, 0, 3)).toBeNull();
  });
});

describe('armShareSeries', () => {
  it('draws no message, the arms that matter and the rest together, adding up to each week’s decisions', () => {
    const shares = sharesOf([
      { 0: 0.5, 1: 0.2, 2: 0.02, 3: 0.28 },
      { 0: 0.4, 1: 0.03, 2: 0.02, 3: 0.55 },
    ]);
    const series = armShareSeries(shares);
    expect(series.map((line) => line.name)).toEqual(['No message', 'reminder · loss', 'reminder · neutral', 'Other arms']);
    expect(series.at(-1)!.data).toEqual([0.02, 0.02]);
    for (const week of [0, 1]) expect(series.reduce((total, line) => total + line.data[week]!, 0)).toBeCloseTo(1);
  });
});
