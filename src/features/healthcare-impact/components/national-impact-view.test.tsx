import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PlatformAdherence } from '../schemas';
import type { ComparisonImprovement, MeasuredImprovements, TrialImprovement } from '../server/get-measured-improvement';
import { NationalImpactView, platformAdherenceText } from './national-impact-view';

/**
 * The view as rendered for a given measured improvement (the slider's starting value). No DOM test library
 * is installed, so key presses on the sliders are exercised by the e2e spec (tests/e2e/healthcare-impact.spec.ts);
 * here the rendered figures must follow the slider's value.
 */
const trial = (points: number): TrialImprovement => ({
  source: 'trial',
  trialName: 'Demo trial',
  synthetic: true,
  points: { estimate: points, ciLow: points - 2, ciHigh: points + 2 },
  period: { from: '2025-01-06', to: '2025-06-30' },
  population: 'intention to treat, 200 randomised',
  participants: { control: 100, intervention: 100 },
});

const comparison: ComparisonImprovement = {
  source: 'comparison',
  policyLabel: 'Personalised (learning policy)',
  controlLabel: 'No messages',
  policyShare: 0.61,
  controlShare: 0.5,
  points: 11,
  patients: 1000,
  seed: 1,
  period: { from: '2025-01-01', to: '2025-12-31' },
};

const measured = (points: number): MeasuredImprovements => ({ trial: trial(points), comparison: null, initial: 'trial' });
const nothing: MeasuredImprovements = { trial: null, comparison: null, initial: 'own' };

const platform: PlatformAdherence = {
  share: 0.6234,
  patients: 1234,
  period: { from: '2025-01-01', to: '2025-12-31', dataTo: '2025-12-31' },
  population: 'platform patients with a fill in the period of any product (every company; all regions)',
};

const totalRow = (markup: string) => {
  const match = /data-testid="impact-row-Total">(.*?)<\/tr>/.exec(markup);
  if (match === null) throw new Error('no total row');
  return match[1]!.replace(/<[^>]+>/g, ' ');
};

/** The text of the element with this test id (markup only: tags dropped, entities as React writes them). */
const textOf = (markup: string, testId: string) => {
  const match = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</p>`).exec(markup);
  if (match === null) throw new Error(`no ${testId}`);
  return match[1]!.replace(/<[^>]+>/g, '').replace(/&#x27;/g, '’');
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
    expect(markup).toContain('Approximate (transferred, converted or assumed, as it says). Source: ');
  });

  it('recomputes the figures from the improvement slider', () => {
    const none = totalRow(renderToStaticMarkup(<NationalImpactView measured={nothing} />));
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
    expect(markup).toContain('The difference is negative, so the slider starts at 0.');
  });

  it('without a completed trial starts from the simulated comparison, labelled simulated, with its year and cohort', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={{ trial: null, comparison, initial: 'comparison' }} />);
    const source = textOf(markup, 'improvement-source');
    expect(source).toContain('No trial of the platform is complete yet, so it starts at the simulated policy comparison');
    expect(source).toContain('simulated, not measured on patients');
    expect(source).toContain('1 January 2025 to 31 December 2025');
    expect(source).toContain('1,000 simulated patients');
    expect(source).toContain('11.0 percentage points');
    expect(markup).toContain('11.0 points');
    expect(markup).toContain('The policy comparison (simulated)');
    expect(markup).not.toContain('(measured)');
  });

  it('offers the trial and the comparison to choose between when both exist, starting from the trial', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={{ trial: trial(4), comparison, initial: 'trial' }} />);
    expect(markup).toContain('The trial “Demo trial” (measured)');
    expect(markup).toContain('The policy comparison (simulated)');
    expect(markup).toContain('Your own value (move the slider)');
    expect(textOf(markup, 'improvement-source')).toContain('Starts at the platform’s measured effect: the primary result of the trial');
    expect(markup).toContain('4.0 points');
  });

  it('says there is nothing to start from when neither source exists', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={nothing} />);
    expect(textOf(markup, 'improvement-source')).toContain('No trial of the platform is complete yet and the policy comparison');
    expect(markup).not.toContain('data-testid="improvement-choice"');
  });

  it('shows the linked measured adherence with its period and population, and the button to use it', () => {
    const markup = renderToStaticMarkup(<NationalImpactView measured={nothing} platformAdherence={platform} />);
    expect(textOf(markup, 'platform-adherence')).toContain(
      'measured on the platform: 62% of 1,234 patients at PDC ≥ 0.8, 1 Jan 2025 – 31 Dec 2025 (data up to 31 Dec 2025), platform patients with a fill in the period of any product (every company; all regions)',
    );
    expect(markup).toContain('Use the platform’s measured adherence as the baseline of every condition');
    // Not applied until asked: the baseline sliders still show the preset's source.
    expect(markup).not.toContain('The platform’s adherence,');
    expect(markup).not.toContain('data-testid="platform-adherence-problem"');
  });

  it('shows why a linked figure was ignored, and no figure', () => {
    const markup = renderToStaticMarkup(
      <NationalImpactView measured={nothing} platformAdherenceProblem="The measured adherence in this page’s address was ignored: x." />,
    );
    expect(textOf(markup, 'platform-adherence-problem')).toBe('The measured adherence in this page’s address was ignored: x.');
    expect(markup).not.toContain('data-testid="platform-adherence"');
  });

  it('words the platform adherence without a patient count when the portal showed none', () => {
    expect(platformAdherenceText({ ...platform, patients: null })).toBe(
      'measured on the platform: 62% at PDC ≥ 0.8, 1 Jan 2025 – 31 Dec 2025 (data up to 31 Dec 2025), platform patients with a fill in the period of any product (every company; all regions)',
    );
  });
});
