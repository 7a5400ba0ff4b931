import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parsePlatformAdherenceQuery } from '@/features/healthcare-impact';
import type { PortalTable, PortalValue } from '../portal-tables';
import type { PortalView } from '../server/get-portal-view';
import { NationalImpactLink, portalMeasuredAdherence } from './national-impact-link';

type ShownView = Extract<PortalView, { status: 'ok' }>;

/** The PDC distribution as the portal builds it: the top bin's share, and the cohort's count in the last row. */
const pdcTable = (adherent: PortalValue, cohort: PortalValue): PortalTable => ({
  id: 'pdc-distribution',
  title: 'Refill-based PDC over the period',
  population: 'Patients with a fill of the products shown in the period',
  columns: ['PDC', 'Patients', 'Share of patients'],
  rows: [
    {
      key: '60-80',
      label: 'PDC 0.6 to below 0.8',
      values: [
        { kind: 'count', value: 40 },
        { kind: 'share', value: 0.2 },
      ],
    },
    { key: '80-100', label: 'PDC 0.8 or more (adherent)', values: [{ kind: 'count', value: 124 }, adherent] },
    { key: 'all', label: 'All patients with a fill in the period', values: [cohort, { kind: 'text', value: '' }] },
  ],
});

const viewWith = (table: PortalTable, filters: ShownView['filters'] = { productId: null, companyId: null, region: null }): ShownView => ({
  status: 'ok',
  audience: 'government',
  period: {
    start: '2025-01-01',
    end: '2025-12-31',
    asOf: '2026-01-05',
    days: 365,
    choice: { kind: 'last-months', months: 12 },
    notice: null,
  },
  pending: null,
  filters,
  filterProblem: null,
  options: {
    products: [{ id: 'p1', name: 'Amlonor', companyName: 'Northwind Pharma' }],
    companies: [{ id: 'c1', name: 'Northwind Pharma' }],
    regions: ['North'],
  },
  companies: ['Northwind Pharma'],
  productIds: ['p1'],
  figures: { tables: [table], worstWindow: null, fullyHidden: false },
});

const hrefOf = (markup: string) => /href="([^"]+)"/.exec(markup)![1]!.replace(/&amp;/g, '&');

describe('NationalImpactLink', () => {
  it('carries the shown share at PDC ≥ 0.8 with its period, data cut and population, which the impact page reads back', () => {
    const view = viewWith(pdcTable({ kind: 'share', value: 0.62 }, { kind: 'count', value: 200 }));
    const markup = renderToStaticMarkup(<NationalImpactLink view={view} />);
    const href = hrefOf(markup);
    expect(href.startsWith('/algorithms/patient-engagement/national-healthcare-impact?')).toBe(true);
    const params = Object.fromEntries(new URL(href, 'http://localhost').searchParams);
    expect(parsePlatformAdherenceQuery(params)).toEqual({
      kind: 'valid',
      adherence: {
        share: 0.62,
        patients: 200,
        period: { from: '2025-01-01', to: '2025-12-31', dataTo: '2026-01-05' },
        population: 'platform patients with a fill in the period of any product (every company; all regions)',
      },
    });
    expect(markup).toContain('with this view’s measured adherence, 62% of patients at PDC ≥ 0.8 over the period shown');
  });

  it('names the filters in the population', () => {
    const view = viewWith(pdcTable({ kind: 'share', value: 0.5 }, { kind: 'count', value: 40 }), {
      productId: 'p1',
      companyId: 'c1',
      region: 'North',
    });
    expect(portalMeasuredAdherence(view)?.population).toBe(
      'platform patients with a fill in the period of Amlonor (Northwind Pharma; region North)',
    );
  });

  it('carries no figure when the share is suppressed', () => {
    for (const hidden of [
      { kind: 'none', label: 'hidden' },
      { kind: 'none', label: 'n < 11' },
    ] as const) {
      const view = viewWith(pdcTable(hidden, { kind: 'hidden', label: '<11' }));
      expect(portalMeasuredAdherence(view)).toBeNull();
      const markup = renderToStaticMarkup(<NationalImpactLink view={view} />);
      expect(hrefOf(markup)).toBe('/algorithms/patient-engagement/national-healthcare-impact');
      expect(markup).toContain('is hidden by small-cell suppression, so the link carries no measured adherence');
    }
  });

  it('leaves the patient count out when the count is hidden but the share is shown', () => {
    const view = viewWith(pdcTable({ kind: 'share', value: 0.7 }, { kind: 'hidden', label: 'suppressed' }));
    expect(portalMeasuredAdherence(view)).toMatchObject({ share: 0.7, patients: null });
  });
});
