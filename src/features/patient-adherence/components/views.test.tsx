import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { suppressCount, suppressSmallCells } from '@/engine/aggregation/small-cell-suppression';
import type { ComplianceJourney } from '../server/get-compliance-journey';
import type { PatientProfile } from '../server/get-patient-profile';
import { ComplianceJourneyView } from './compliance-journey-view';
import { PatientProfileView } from './patient-profile-view';

const profile: PatientProfile = {
  status: 'ok',
  access: 'example',
  choices: [],
  patient: { id: '00000000-0000-4000-8000-000000000001', pseudonym: 'S-0001', persona: 'routine', synthetic: true, conditions: ['hypertension'] },
  period: { start: '2025-03-01', end: '2026-02-28', days: 365 },
  regimens: [{ medication: 'Atorva 20', genericName: 'atorvastatin', dosesPerDay: 1, doseTimes: ['08:00'], startDate: '2025-03-01', endDate: null }],
  pdc: { value: 285 / 365, coveredDays: 285, periodDays: 365, start: '2025-03-01', end: '2026-02-28' },
  doseAdherence: { scheduledDoses: 2, confirmedDoses: 1, onTimeDoses: 1, confirmedShare: 0.5, onTimeShare: 0.5 },
  calendar: [
    { date: '2026-03-02', status: 'taken', takenDoses: 1, scheduledDoses: 1 },
    { date: '2026-03-03', status: 'missed', takenDoses: 1, scheduledDoses: 2 },
  ],
  cmaWindows: [{ start: '2025-03-01', end: '2025-05-29', cma7: 0.9, cma9: null }],
  refillGaps: [{ medication: 'Atorva 20', from: '2025-06-01', to: '2025-06-20', days: 20 }],
  episodes: [{ episode: 1, start: '2025-03-01', end: '2026-02-28', days: 365, ongoing: true }],
  messages: [],
  messageStatusCounts: [],
};

describe('patient profile view', () => {
  it('explains the numbers in words, names each calendar day and labels synthetic data', () => {
    const html = renderToStaticMarkup(<PatientProfileView profile={profile} />);
    expect(html).toContain('PDC 0.78: 285 of 365 days covered');
    expect(html).toContain('aria-label="2 March 2026: taken"');
    expect(html).toContain('aria-label="3 March 2026: missed (1 of 2 doses taken)"');
    expect(html).toContain('role="grid"');
    expect(html).toContain('synthetic demo data');
    expect(html).toContain('a de-identified example patient');
    expect(html).toContain('No messages were sent or received in these 12 months.');
  });

  it('says plainly when no record is linked', () => {
    expect(renderToStaticMarkup(<PatientProfileView profile={{ status: 'no-linked-record' }} />)).toContain('There is no record linked to your account yet');
  });
});

describe('compliance journey view', () => {
  it('shows suppressed counts as "<11" or "suppressed", and no trajectories when not allowed', () => {
    const sizes = suppressSmallCells({ groups: [{ key: 'routine', count: 40 }, { key: 'sceptic', count: 4 }, { key: 'busy', count: 25 }], total: 69 });
    const points = Array.from({ length: 13 }, (_, month) => ({ month, persisting: 1 - month / 100, atRisk: suppressCount(69) }));
    const journey: ComplianceJourney = {
      scope: 'all',
      suppressed: true,
      period: { start: '2025-03-01', end: '2026-02-28' },
      cohort: { patients: suppressCount(69), synthetic: suppressCount(69) },
      pdcByMonth: [{ month: 1, patients: suppressCount(69), quartiles: { q1: 0.5, median: 0.8, q3: 1 }, adherentShare: 0.5, bands: [{ key: 'below-0.5', label: 'PDC below 0.5', patients: suppressCount(3) }] }],
      persistence: {
        overall: { key: 'all', label: 'All patients', patients: suppressCount(69), points },
        byPersona: sizes.groups.map((group) => ({ key: group.key, label: group.key, patients: group, points: points.map((point) => ({ ...point, persisting: group.suppressed ? null : point.persisting })) })),
        byProduct: [],
      },
      trajectories: null,
    };
    const html = renderToStaticMarkup(<ComplianceJourneyView journey={journey} />);
    expect(html).toContain('&lt;11');
    expect(html).toContain('suppressed');
    expect(html).toContain('synthetic demo data');
    expect(html).not.toContain('Individual trajectories');
    const counts = [...html.matchAll(/data-testid="patient-count"[^>]*>([^<]*)</g)].map((match) => match[1]);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((count) => /^\d+$/.test(count ?? '') && Number(count) > 0 && Number(count) < 11)).toEqual([]);
  });
});
