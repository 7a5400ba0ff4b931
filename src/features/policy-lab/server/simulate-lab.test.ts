import { describe, expect, it } from 'vitest';
import { armCount } from '@/engine/policy/message-arms';
import { defaultPersonalisedSettings } from '@/engine/policy/personalised';
import { personas } from '@/engine/simulation/personas';
import { labActionCount, labWeeks } from '../schemas';
import { armSharesOf, cumulativeRegret, posteriorSeriesOf, simulateLab } from './simulate-lab';

describe('cumulativeRegret', () => {
  it('sums the baseline’s weekly lead in percentage points', () => {
    expect(cumulativeRegret([0.8, 0.8, 0.7], [0.7, 0.8, 0.75])).toEqual([10, 10, 5]);
  });
});

describe('armSharesOf', () => {
  it('divides each week’s decisions by their total, and gives 0 for a week without any', () => {
    const decisions = new Float64Array(2 * labActionCount);
    decisions[0] = 3;
    decisions[5] = 1;
    const shares = armSharesOf(decisions, 2);
    expect(shares[0]![0]).toBe(0.75);
    expect(shares[0]![5]).toBe(0.25);
    expect(shares[1]!.every((share) => share === 0)).toBe(true);
  });
});

describe('posteriorSeriesOf', () => {
  it('turns weekly snapshots into one series per persona and arm', () => {
    const entry = { persona: 'busy-professional' as const, arm: 2, category: 'reminder' as const, framing: 'gain' as const };
    const series = posteriorSeriesOf([
      [{ ...entry, mean: 0, lower: -0.5, upper: 0.5, observations: 0 }],
      [{ ...entry, mean: 0.1, lower: 0.05, upper: 0.15, observations: 40 }],
    ]);
    expect(series).toEqual([
      { persona: 'busy-professional', action: 2, mean: [0, 0.1], lower: [-0.5, 0.05], upper: [0.5, 0.15], observations: [0, 40] },
    ]);
  });
});

describe('simulateLab', () => {
  it('runs the three policies on one cohort and summarises every week', { timeout: 120_000 }, () => {
    const progress: [number, number][] = [];
    const input = { patients: 60, seed: 7, settings: defaultPersonalisedSettings };
    const summary = simulateLab({ input, onProgress: (done, total) => progress.push([done, total]) });
    expect(summary.outcomes.map((outcome) => outcome.policy)).toEqual(['personalised', 'uniform-random', 'fixed-daily']);
    expect(summary.armShares.map((shares) => shares.persona)).toEqual([...personas]);
    expect(summary.armShares.reduce((total, shares) => total + shares.patients, 0)).toBe(60);
    for (const shares of summary.armShares) {
      expect(shares.sharesByWeek).toHaveLength(labWeeks);
      // A persona with patients chose something every week; the shares add up to one.
      if (shares.patients > 0) for (const week of shares.sharesByWeek) expect(week.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    }
    expect(summary.cumulativeRegret.vsFixedDaily).toHaveLength(labWeeks);
    expect(summary.posteriorVersions).toHaveLength(labWeeks + 1);
    expect(summary.posterior).toHaveLength(personas.length * armCount);
    for (const series of summary.posterior) {
      expect(series.mean).toHaveLength(labWeeks + 1);
      series.mean.forEach((mean, week) => {
        expect(series.lower[week]).toBeLessThanOrEqual(mean);
        expect(series.upper[week]).toBeGreaterThanOrEqual(mean);
      });
    }
    // The fixed daily reminder sends one message a day to every patient who has not opted out.
    const daily = summary.outcomes.find((outcome) => outcome.policy === 'fixed-daily')!;
    expect(daily.messagesPerPatientPerWeek).toBeGreaterThan(5);
    expect(daily.messagesPerPatientPerWeek).toBeLessThanOrEqual(7);
    const last = progress.at(-1)!;
    expect(last[1]).toBe(3 * 60 * 364);
    expect(progress.every(([done], index) => index === 0 || done >= progress[index - 1]![0])).toBe(true);
    // Deterministic for a seed.
    expect(simulateLab({ input })).toEqual(summary);
  });
});
