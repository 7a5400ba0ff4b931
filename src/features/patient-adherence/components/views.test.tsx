import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { suppressCount, suppressSmallCells } from '@/engine/aggregation/small-cell-suppression';
import type { ComplianceJourney, GroupMonthlyPdc } from '../server/get-compliance-journey';
import type { PatientProfile } from '../server/get-patient-profile';
import { ComplianceJourneyView } from './compliance-journey-view';
import { PatientProfileView } from './patient-profile-view';

vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => undefined }) }));

const period = {
  start: '2025-03-01',
  end: '2026-02-28',
  asOf: '2026-02-28',
  days: 365,
  choice: { kind: 'last-months', months: 12 },
  notice: null,
} as const;

const profile: PatientProfile = {
  status: 'ok',
  access: 'example',
  choices: [],
  patient: {
    id: '00000000-0000-4000-8000-000000000001',
    pseudonym: 'S-0001',
    persona: 'routine',
    synthetic: true,
    conditions: ['hypertension'],
    messagingProgramme: null,
  },
  period,
  regimens: [
    {
      medication: 'Atorva 20',
      genericName: 'atorvastatin',
      dosesPerDay: 1,
      doseTimes: ['08:00'],
      startDate: '2025-03-01',
      endDate: null,
      daysPerFill: 30,
      quantityPerFill: 30,
      repeatsAllowed: 5,
    },
    {
      medication: 'Ramimer',
      genericName: null,
      dosesPerDay: 2,
      doseTimes: [],
      startDate: '2025-04-01',
      endDate: null,
      daysPerFill: null,
      quantityPerFill: null,
      repeatsAllowed: 1,
    },
  ],
  pdc: { value: 285 / 365, coveredDays: 285, periodDays: 365, start: '2025-03-01', end: '2026-02-28' },
  doseAdherence: { scheduledDoses: 2, confirmedDoses: 1, onTimeDoses: 1, confirmedShare: 0.5, onTimeShare: 0.5 },
  dosesAndRefills: {
    confirmedDoses: 1,
    reportedDoses: 2,
    confirmedShare: 0.5,
    refillPdc: 285 / 365,
    disagree: true,
    sentence: 'Confirmed 1 of 2 reported doses (50%); refills cover 78% of days. They disagree.',
  },
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
    // The prescription's intended supply, only as far as it is stated.
    expect(html).toContain('since 1 March 2025. Prescribed: per fill 30 days&#x27; supply (30 units), 5 refills allowed.');
    expect(html).toContain('since 1 April 2025. Prescribed: 1 refill allowed.');
    expect(html).toContain('aria-label="2 March 2026: taken"');
    expect(html).toContain('aria-label="3 March 2026: missed (1 of 2 doses taken)"');
    expect(html).toContain('role="grid"');
    // One dose calendar: the grid, with its days counted in words (no second drawing of the same days).
    expect(html).toContain('1 day with every dose taken, 0 with a dose skipped, 1 with a dose missed and 0 without a recorded dose.');
    expect(html).not.toContain('Calendar heatmap');
    // Months named above the weeks they start in.
    expect(html).toContain('>Mar</span>');
    expect(html).toMatch(/role="img" aria-label="Line chart of CMA7 and CMA9 in 1 windows of 90 days/);
    expect(html).toContain('synthetic demo data');
    expect(html).toContain('a de-identified example patient');
    expect(html).toContain('No messages were sent or received in this period.');
    // The period as every page states it, and the choice of another.
    expect(html).toContain('<span data-testid="reporting-period">1 Mar 2025 – 28 Feb 2026, data up to 28 Feb 2026</span>');
    expect(html).toContain('>Reporting period<');
    expect(html).toContain('<input type="hidden" name="period" value="last-12-months"/>');
    // Dose confirmations beside refills, with the sentence when they disagree.
    expect(html).toContain('Confirmed 1 of 2 reported doses (50%); refills cover 78% of days. They disagree.');
  });

  it('lists each message with its text as sent', () => {
    const message = { sentAt: '2026-02-27T07:55:00Z', channel: 'sms', direction: 'outbound', category: 'reminder', status: 'read' };
    const html = renderToStaticMarkup(
      <PatientProfileView
        profile={{
          ...profile,
          messages: [
            { ...message, body: 'Time for your evening dose, Sam.', history: [] },
            { ...message, body: null, history: [] },
          ],
          messageStatusCounts: [{ status: 'read', count: 2 }],
        }}
      />,
    );
    expect(html).toContain('<th scope="col">Text as sent</th>');
    expect(html).toContain('Time for your evening dose, Sam.');
    expect(html).toContain('no text recorded');
  });

  it('gives a clinician a searchable picker (a combobox, not a native select) showing the chosen patient', () => {
    const other = { id: '00000000-0000-4000-8000-000000000002', pseudonym: 'S-0002', synthetic: false };
    const html = renderToStaticMarkup(
      <PatientProfileView
        profile={{ ...profile, access: 'organisation', choices: [{ id: profile.patient.id, pseudonym: 'S-0001', synthetic: true }, other] }}
      />,
    );
    expect(html).toMatch(/role="combobox"/);
    expect(html).toContain('Patient of your organisation');
    expect(html).toMatch(/<input[^>]*value="S-0001"/);
    expect(html).toContain('2 patients, by pseudonym');
    expect(html).not.toContain('<select name="patient"');
  });

  it('says plainly when no record is linked, or a manufacturer has no company', () => {
    expect(renderToStaticMarkup(<PatientProfileView profile={{ status: 'no-linked-record' }} />)).toContain(
      'There is no record linked to your account yet',
    );
    expect(renderToStaticMarkup(<PatientProfileView profile={{ status: 'no-company' }} />)).toContain(
      'You are not a member of any drug company yet',
    );
  });
});

const options = {
  personas: [
    { value: 'busy', label: 'Busy' },
    { value: 'routine', label: 'Routine' },
    { value: 'sceptic', label: 'Sceptic' },
  ],
  products: [{ value: 'statin', label: 'Atorva 20' }],
};

function suppressedJourney(): ComplianceJourney {
  const sizes = suppressSmallCells({
    groups: [
      { key: 'busy', count: 25 },
      { key: 'routine', count: 40 },
      { key: 'sceptic', count: 4 },
    ],
    total: 69,
  });
  const points = Array.from({ length: 13 }, (_, month) => ({ month, persisting: 1 - month / 100, atRisk: suppressCount(69) }));
  const byPersona: GroupMonthlyPdc[] = sizes.groups.map((group) => ({
    key: group.key,
    label: group.key,
    patients: group,
    months: [
      {
        month: 1,
        patients: group,
        quartiles: group.suppressed ? null : { q1: 0.6, median: 0.9, q3: 1 },
        adherentShare: group.suppressed ? null : 0.7,
      },
    ],
  }));
  return {
    status: 'ok',
    scope: 'all',
    companies: [],
    suppressed: true,
    filters: { persona: null, product: null },
    options,
    period,
    patientsInScope: 80,
    cohort: { patients: suppressCount(69), synthetic: suppressCount(69), hasSynthetic: true },
    pdcByMonth: [
      {
        month: 1,
        patients: suppressCount(69),
        quartiles: { q1: 0.5, median: 0.8, q3: 1 },
        adherentShare: 0.5,
        bands: [{ key: 'below-0.5', label: 'PDC below 0.5', patients: suppressCount(3) }],
      },
    ],
    pdcByPersona: byPersona,
    pdcByProduct: [],
    persistence: {
      overall: { key: 'all', label: 'All patients', patients: suppressCount(69), points },
      byPersona: sizes.groups.map((group) => ({
        key: group.key,
        label: group.key,
        patients: group,
        points: points.map((point) => ({ ...point, persisting: group.suppressed ? null : point.persisting })),
      })),
      byProduct: [],
    },
    withheld: [],
    trajectories: null,
  };
}

const countsIn = (html: string) => [...html.matchAll(/data-testid="patient-count"[^>]*>([^<]*)</g)].map((match) => match[1]);

describe('compliance journey view', () => {
  it('shows suppressed counts as "<11" or "suppressed", and no trajectories when not allowed', () => {
    const html = renderToStaticMarkup(<ComplianceJourneyView journey={suppressedJourney()} />);
    expect(html).toContain('&lt;11');
    expect(html).toContain('suppressed');
    expect(html).toContain('synthetic demo data');
    expect(html).not.toContain('Individual trajectories');
    const counts = countsIn(html);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((count) => /^\d+$/.test(count ?? '') && Number(count) > 0 && Number(count) < 11)).toEqual([]);
  });

  it('draws every chart with ECharts as a named image beside a table of the same figures', () => {
    const html = renderToStaticMarkup(<ComplianceJourneyView journey={suppressedJourney()} />);
    const images = [...html.matchAll(/role="img" aria-label="([^"]*)"/g)].map((match) => match[1] ?? '');
    expect(images).toEqual([
      expect.stringMatching(/^Box chart of monthly PDC, months 1 to 12: median 0.80 in month 1; share with PDC 0.8 or more 50% in month 1/),
      // busy (25) is hidden to protect sceptic (4) from subtraction: only routine has a line.
      expect.stringMatching(/^Line chart of the median monthly PDC by persona: routine 0.90 in month 1\./),
      expect.stringMatching(/^Line chart of the share of patients with monthly PDC 0.8 or more by persona/),
      expect.stringMatching(/^Persistence, all patients and by persona: step lines/),
    ]);
    // No hand-drawn SVG charts are left.
    expect(html).not.toContain('<svg viewBox');
    expect(html).toContain('<caption class="text-left font-medium">Monthly PDC by persona</caption>');
    expect(html).toContain('<caption class="text-left font-medium">Persistence, all patients and by persona</caption>');
  });

  it('offers the persona and product filters as labelled selects', () => {
    const html = renderToStaticMarkup(<ComplianceJourneyView journey={suppressedJourney()} />);
    expect(html).toContain('aria-label="Choose the cohort"');
    expect(html).toContain('Persona');
    expect(html).toContain('Product (first fill)');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Show<\/button>/);
  });

  it('explains withheld breakdowns in a filtered view and says when a group is too small', () => {
    const journey = suppressedJourney();
    const filtered: ComplianceJourney = { ...journey, filters: { persona: 'routine', product: null }, withheld: ['bands', 'product'] };
    const html = renderToStaticMarkup(<ComplianceJourneyView journey={filtered} />);
    expect(html).toContain('with the persona “Routine”');
    expect(html).toContain('the PDC bands and the breakdown by product are not shown to your role');
    const small: ComplianceJourney = { ...filtered, cohort: { patients: suppressCount(4), synthetic: null, hasSynthetic: true } };
    expect(renderToStaticMarkup(<ComplianceJourneyView journey={small} />)).toContain(
      'This group has fewer than 11 patients, so none of its figures are shown.',
    );
  });

  it('names the field of a bad filter, and says plainly when a manufacturer has no company or filters cannot be combined', () => {
    const invalid = renderToStaticMarkup(
      <ComplianceJourneyView
        journey={{
          status: 'invalid-filter',
          field: 'product',
          message: 'product: “x” is not one of the products you can view.',
          filters: { persona: null, product: 'x' },
          options,
          period,
        }}
      />,
    );
    expect(invalid).toMatch(/role="alert"[^>]*>product: “x” is not one of the products you can view\.</);
    const malformed = renderToStaticMarkup(
      <ComplianceJourneyView journey={suppressedJourney()} addressProblem="persona may hold only letters" />,
    );
    expect(malformed).toContain('persona may hold only letters');
    expect(malformed).not.toContain('Monthly proportion of days covered');
    expect(renderToStaticMarkup(<ComplianceJourneyView journey={{ status: 'no-company' }} />)).toContain(
      'You are not a member of any drug company yet',
    );
    expect(
      renderToStaticMarkup(
        <ComplianceJourneyView
          journey={{ status: 'filters-not-combined', filters: { persona: 'busy', product: 'statin' }, options, period }}
        />,
      ),
    ).toContain('a persona and a product are not combined for your role');
  });
});
