import { describe, expect, it } from 'vitest';
import { findPatientEngagementPage, getAlgorithmPages, getSurveyPages, productSlug, usesFullWidthTopBar } from './routes';

describe('patient-engagement routes (seed-spec §2)', () => {
  it('lists the 14 algorithm pages with the spec labels and {product} = medaptive', () => {
    const pages = getAlgorithmPages('Medaptive');
    expect(pages).toHaveLength(14);
    expect(pages.map((page) => [page.href, page.label])).toContainEqual([
      '/algorithms/patient-engagement/medaptive-comparison',
      'Medaptive Comparison',
    ]);
    expect(pages.map((page) => page.label)).toContain('Patient Messaging System - Overview');
    expect(new Set(pages.map((page) => page.segment)).size).toBe(14);
  });

  it('lists the 3 survey pages', () => {
    expect(getSurveyPages().map((page) => page.href)).toEqual([
      '/algorithms/patient-engagement/survey-evolution',
      '/algorithms/patient-engagement/lifestyle-surveys',
      '/algorithms/patient-engagement/adherence-optimization',
    ]);
  });

  it('derives the comparison page from the product name', () => {
    expect(productSlug('Care Pilot+')).toBe('care-pilot');
    expect(findPatientEngagementPage('Care Pilot', 'care-pilot-comparison')?.label).toBe('Care Pilot Comparison');
    expect(findPatientEngagementPage('Care Pilot', 'medaptive-comparison')).toBeUndefined();
  });

  it('uses the full-width top bar on any path containing /manufacturing', () => {
    expect(usesFullWidthTopBar('/app/manufacturing')).toBe(true);
    expect(usesFullWidthTopBar('/app/manufacturing/products')).toBe(true);
    expect(usesFullWidthTopBar('/app/drug-company-selector')).toBe(false);
  });
});
