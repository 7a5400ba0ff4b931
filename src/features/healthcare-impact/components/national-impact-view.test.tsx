import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MeasuredImprovement } from '../server/get-measured-improvement';
import { NationalImpactView } from './national-impact-view';

/**
 * The view as rendered for a given measured improvement (the slider's starting value). No DOM test library
 * is installed, so key presses on the sliders are exercised by the e2e spec (tests/e2e/healthcare-impact.spec.ts);
 * here the rendered figures must follow the slider's value.
 */
const measured = (points: number): MeasuredImprovement => ({
  source: 'trial',
  trialName: 'Demo trial',
  synthetic: true,
  points: { estimate: points, ciLow: points - 2, ciHigh: points + 2 },
  period: { from: '2025-01-06', to: '2025-06-30' },
  population: 'intention to treat, 200 randomised',
  participants: { control: 100, intervention: 100 },
});

const totalRow = (markup: string) => {
  const match = /data-testid="impact-row-Total">(.*?)<\/tr>/.exec(markup);
  if (match === null) throw new Error('no total row');
  return match[1]!.replace(/<[^>]+>/g, ' ');
};

describe('NationalImpactView', () => {
  it('shows the measured effect, its period and population, and the not-causal label', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={measured(6)} />);
    expect(markup).toContain('Demo trial');
    expect(markup).toContain('intention to treat, 200 randomised');
    expect(markup).toContain('Modelled from observational associations, not causal.');
    expect(markup).toContain('6.0 points');
    // Every slider shows its value and the source of its preset.
    expect(markup).toContain('Chowdhury R et al., Eur Heart J 2013;34:2940');
    expect(markup).toContain('Approximate planning assumption');
  });

  it('recomputes the figures from the improvement slider', () => {
    const none = totalRow(renderToStaticMarkup(<NationalImpactView measured={null} />));
    const some = totalRow(renderToStaticMarkup(<NationalImpactView measured={measured(5)} />));
    const more = totalRow(renderToStaticMarkup(<NationalImpactView measured={measured(10)} />));
    expect(none).toContain('Central 0 ');
    expect(some).not.toEqual(none);
    expect(more).not.toEqual(some);
    // UK total patients moved at 10 points is twice that at 5 (no condition reaches its cap).
    const moved = (row: string) => Number(/Total\s+([\d,]+)/.exec(row)![1]!.replace(/,/g, ''));
    expect(moved(more)).toBeCloseTo(2 * moved(some), -2);
  });

  it('starts at 0 when the measured effect is negative', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={measured(-3)} />);
    expect(markup).toContain('The measured difference is negative, so the slider starts at 0.');
  });
});
