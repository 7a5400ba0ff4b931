import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { hiddenCount, shownCount } from '@/engine/aggregation/small-cell-suppression';
import type { OutcomeGroup, PatientOutcomes } from '../server/get-patient-outcomes';
import { PatientOutcomesView } from './patient-outcomes-view';

const period = {
  start: '2025-03-01',
  end: '2026-02-28',
  asOf: '2026-02-28',
  days: 365,
  choice: { kind: 'last-months', months: 12 },
  notice: null,
} as const;

const group = (key: string, patients: OutcomeGroup['patients'], figures: boolean): OutcomeGroup => ({
  key,
  label: key,
  patients,
  adherentShare: figures ? 0.75 : null,
  hospitalisationsAvoided: figures ? { low: 1.1, central: 1.5, high: 1.9 } : null,
  deathsAvoided: figures ? { low: -0.2, central: -0.3, high: -0.4 } : null,
  modelled: true,
});

const outcomes: PatientOutcomes = {
  status: 'ok',
  period,
  country: 'united-kingdom',
  suppressed: true,
  cohort: { patients: shownCount(40), adherentShare: 0.7, synthetic: true },
  groups: {
    persona: [group('Routine', hiddenCount('complementary'), false), group('Forgetful', hiddenCount('small'), false)],
    condition: [group('Hypertension', shownCount(40), true)],
    'age-band': [group('55–64', shownCount(40), true)],
  },
};

describe('PatientOutcomesView', () => {
  it('labels hidden groups, states the period and population, and is labelled not causal', () => {
    const markup = renderToStaticMarkup(<PatientOutcomesView outcomes={outcomes} countryProblem={null} periodProblem={null} />);
    expect(markup).toContain('data-suppressed="small">&lt;11<');
    expect(markup).toContain('data-suppressed="complementary">suppressed<');
    expect(markup).toContain('data-suppressed="derived">hidden<');
    expect(markup.match(/data-testid="suppression-note"/g)).toHaveLength(1);
    expect(markup).toContain('Modelled from observational associations, not causal.');
    expect(markup).toContain('Patients with a dispensing from 1 March 2025 to 28 February 2026: 40');
    // Central, then low to high; a negative figure is signed.
    expect(markup).toContain('1.5 (1.1 to 1.9)');
    expect(markup).toContain('−0.3 (−0.2 to −0.4)');
  });

  it('says so instead of figures when the period holds fewer than 11 patients', () => {
    const markup = renderToStaticMarkup(
      <PatientOutcomesView
        outcomes={{ status: 'too-few', period, country: 'india', suppressed: true }}
        countryProblem={null}
        periodProblem={null}
      />,
    );
    expect(markup).toContain('Fewer than 11 patients had a dispensing from 1 March 2025 to 28 February 2026');
    expect(markup).not.toContain('outcomes-persona');
  });
});
