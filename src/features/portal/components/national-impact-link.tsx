import { type PlatformAdherence, platformAdherenceQuery } from '@/features/healthcare-impact';
import { formatPercent } from '@/lib/format';
import { patientEngagementPrefix } from '@/lib/routes';
import { NOT_RECORDED } from '../portal-tables';
import type { PortalView } from '../server/get-portal-view';

type ShownView = Extract<PortalView, { status: 'ok' }>;

const impactPath = `${patientEngagementPrefix}national-healthcare-impact`;

/** The view's filters in words: which patients its figures are of. */
export function portalPopulationText(view: Pick<ShownView, 'filters' | 'options'>): string {
  const { filters, options } = view;
  const product = options.products.find((candidate) => candidate.id === filters.productId);
  const company = options.companies.find((candidate) => candidate.id === filters.companyId);
  const products = product === undefined ? 'any product' : product.name;
  const companies = company === undefined ? 'every company' : company.name;
  const region =
    filters.region === null ? 'all regions' : filters.region === NOT_RECORDED ? 'region not recorded' : `region ${filters.region}`;
  return `platform patients with a fill in the period of ${products} (${companies}; ${region})`;
}

/**
 * The view's measured adherence, as its PDC distribution shows it: the share of the period's patients at PDC ≥ 0.8.
 * Null when that share is hidden by small-cell suppression (then the link carries nothing).
 */
export function portalMeasuredAdherence(view: Pick<ShownView, 'figures' | 'period' | 'filters' | 'options'>): PlatformAdherence | null {
  const table = view.figures.tables.find((candidate) => candidate.id === 'pdc-distribution');
  const adherent = table?.rows.find((row) => row.key === '80-100')?.values[1];
  if (adherent?.kind !== 'share') return null;
  const patients = table?.rows.find((row) => row.key === 'all')?.values[0];
  return {
    share: adherent.value,
    patients: patients?.kind === 'count' ? patients.value : null,
    period: { from: view.period.start, to: view.period.end, dataTo: view.period.asOf },
    population: portalPopulationText(view),
  };
}

/** The government view's link into the impact model, carrying the measured adherence when it is shown. */
export function NationalImpactLink({ view }: { view: ShownView }) {
  const adherence = portalMeasuredAdherence(view);
  const href = adherence === null ? impactPath : `${impactPath}?${new URLSearchParams(platformAdherenceQuery(adherence))}`;
  return (
    <section aria-labelledby="portal-impact" className="flex flex-col gap-2">
      <h2 id="portal-impact" className="text-2xl font-semibold">
        National impact
      </h2>
      <p data-testid="portal-impact-link">
        <a className="font-medium text-accent underline" href={href}>
          Model the national healthcare impact
        </a>{' '}
        {adherence === null
          ? '— the share of this view’s patients at PDC ≥ 0.8 is hidden by small-cell suppression, so the link carries no measured adherence; the page starts from the platform’s measured improvement (trial or simulated comparison) and the country presets.'
          : `— with this view’s measured adherence, ${formatPercent(adherence.share)} of patients at PDC ≥ 0.8 over the period shown, to use as the baseline adherence if you choose; the page starts from the platform’s measured improvement (trial or simulated comparison).`}
      </p>
    </section>
  );
}
