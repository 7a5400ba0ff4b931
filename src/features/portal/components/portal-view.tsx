import type { ReactNode } from 'react';
import { FormSelect } from '@/components/form-select';
import { describePeriod, ReportingPeriodBar } from '@/components/reporting-period-bar';
import type { PeriodChoice } from '@/engine/aggregation/reporting-period';
import { formatCount, formatDate, formatPercent } from '@/lib/format';
import { hrefWithPeriod, type PeriodView } from '@/lib/period-query';
import { routes } from '@/lib/routes';
import { heatMapShades } from './heat-map-shade';
import { NationalImpactLink } from './national-impact-link';
import { type PortalTable, type PortalValue, weekdayNames } from '../portal-tables';
import { portalFilterQueryOf } from '../schemas';
import type { PortalView } from '../server/get-portal-view';
import { TableScroll } from '@/lib/components/table-scroll';
import { SuppressedCell, SuppressionNote } from '@/lib/components/suppressed-cell';
import { SUPPRESSED_LABEL } from '@/engine/aggregation/small-cell-suppression';

const exportPath = '/api/portal/export';

function valueText(value: PortalValue): ReactNode {
  switch (value.kind) {
    case 'count':
      return formatCount(value.value);
    case 'share':
      return formatPercent(value.value);
    case 'number':
      return String(value.value);
    case 'hidden':
      // The same words as the CSV export: "<11" or "suppressed".
      return <SuppressedCell reason={value.label === SUPPRESSED_LABEL ? 'small' : 'complementary'} />;
    case 'none':
      // A rate over a hidden group: the same words and look as any hidden figure.
      return value.label === 'hidden' ? <SuppressedCell reason="derived" /> : value.label;
    case 'text':
      return value.value;
  }
}

function TableSection({ table, csvHref, period, children }: { table: PortalTable; csvHref: string; period: string; children?: ReactNode }) {
  const headingId = `portal-${table.id}`;
  const shades = heatMapShades(table);
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-lg font-semibold">
          {table.title}
        </h3>
        <a href={csvHref} className="text-sm font-medium text-accent underline" data-testid={`csv-${table.id}`}>
          Download CSV<span className="sr-only"> of {table.title.toLowerCase()}</span>
        </a>
      </div>
      <p className="max-w-4xl text-sm text-muted">
        {period}. {table.population}
      </p>
      {children}
      {shades === null ? null : (
        <p className="text-xs text-muted">
          A heat map: the darker a cell, the more doses in that hour, relative to this table’s largest shown figure. Hidden figures and
          zeros are not shaded.
        </p>
      )}
      {/* Focusable, so a keyboard user can scroll a wide table (the heat maps are 25 columns). */}
      <TableScroll label={table.title}>
        <table className="min-w-full text-sm" data-testid={`table-${table.id}`}>
          <caption className="sr-only">{table.title}</caption>
          <thead>
            <tr className="border-b border-separator text-left">
              {table.columns.map((column) => (
                <th key={column} scope="col" className="py-2 pr-3 whitespace-nowrap">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.length === 0 ? (
              <tr>
                <td colSpan={table.columns.length} className="py-2 text-muted">
                  No patients in this view.
                </td>
              </tr>
            ) : (
              table.rows.map((row, rowIndex) => (
                <tr key={row.key} className="border-b border-separator">
                  <th scope="row" className="py-2 pr-3 text-left font-medium whitespace-nowrap">
                    {row.label}
                  </th>
                  {row.values.map((value, index) => (
                    <td
                      key={index}
                      className={shades === null ? 'py-2 pr-3 tabular-nums' : 'px-1.5 py-2 tabular-nums'}
                      style={shades?.[rowIndex]?.[index] ? { backgroundColor: shades[rowIndex][index] } : undefined}
                    >
                      {valueText(value)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

/**
 * Why the figures are of an earlier day than the data (decision 060): the period shown, the data not yet in it, the
 * refresh that adds them and the period the page will then show.
 */
export function pendingWording(period: PeriodView, pending: NonNullable<Extract<PortalView, { status: 'ok' }>['pending']>): string {
  const short = { short: true };
  return (
    `Every figure below is for ${describePeriod(period)}, the latest period the portal's summaries hold. ` +
    `Newer data (from ${formatDate(pending.newDataFrom, short)} up to ${formatDate(pending.asked.asOf, short)}) are being added: ` +
    `the refresh is ${pending.refresh === 'running' ? 'running' : 'queued'}, and then this page shows ${describePeriod(pending.asked)}.`
  );
}

/** The portal page's body: filters, the suppressed tables with their CSV links, and the worst dosing window. */
export function PortalViewPanel({
  view,
  path,
  addressProblem,
  periodProblem,
  forecastSlot,
}: {
  view: PortalView;
  path: string;
  addressProblem: string | null;
  periodProblem: string | null;
  /** Where the demand forecast section is mounted (issue 15 item 1; built separately). */
  forecastSlot?: ReactNode;
}) {
  if (view.status === 'no-company') {
    return (
      <p role="status" className="rounded-xl border border-separator bg-surface p-4">
        You are not a member of any drug company yet, so there are no products to report on. An admin can add you to your company.
      </p>
    );
  }
  const { figures, period, filters, options } = view;
  const filterQuery = portalFilterQueryOf(filters);
  const csvHref = (table: string) => hrefWithPeriod(exportPath, period.choice, { ...filterQuery, table });
  const periodText = describePeriod(period);
  const table = (id: string) => figures.tables.find((candidate) => candidate.id === id);
  const section = (id: string, children?: ReactNode) => {
    const found = table(id);
    return found === undefined ? null : (
      <TableSection key={id} table={found} csvHref={csvHref(id)} period={periodText}>
        {children}
      </TableSection>
    );
  };
  const worst = figures.worstWindow;
  const government = view.audience === 'government';
  const breakdowns = government ? ['by-condition', 'by-product-class', 'by-company', 'by-product'] : ['by-product'];
  return (
    <div className="flex flex-col gap-8">
      <ReportingPeriodBar period={period} path={path} keep={filterQuery} problem={periodProblem} />
      {view.pending === null ? null : (
        <p role="status" data-testid="portal-pending" className="rounded-xl border border-warning bg-warning/10 p-3">
          {pendingWording(period, view.pending)}
        </p>
      )}
      {[addressProblem, view.filterProblem].map((problem) =>
        problem === null ? null : (
          <p key={problem} role="alert" className="text-danger">
            {problem}
          </p>
        ),
      )}
      <section aria-labelledby="portal-scope" className="flex flex-col gap-3 rounded-2xl border border-separator bg-surface p-4">
        <h2 id="portal-scope" className="text-xl font-semibold">
          {government ? 'Every company’s products' : 'Your companies’ products'}
        </h2>
        <p data-testid="portal-companies">
          {government ? 'Companies: ' : 'Showing the products of '}
          {view.companies.length === 0 ? 'none' : view.companies.join(', ')}.
        </p>
        <SuppressionNote className="text-sm text-muted">
          Counts of refills, replies and doses are treated the same way, and a share is shown only over at least 11.
        </SuppressionNote>
        <form method="get" action={path} className="flex flex-wrap items-end gap-3">
          <FormSelect
            name="product"
            label="Product"
            defaultValue={filters.productId ?? ''}
            options={[
              ['', 'All products'],
              ...options.products.map(
                (product) => [product.id, `${product.name}${product.companyName === null ? '' : ` (${product.companyName})`}`] as const,
              ),
            ]}
          />
          <FormSelect
            name="company"
            label="Company"
            defaultValue={filters.companyId ?? ''}
            options={[['', 'All companies'], ...options.companies.map((company) => [company.id, company.name] as const)]}
          />
          <FormSelect
            name="region"
            label="Region"
            defaultValue={filters.region ?? ''}
            options={[
              ['', 'All regions'],
              ...options.regions.map((region) => [region, region === 'not-recorded' ? 'Not recorded' : region] as const),
            ]}
          />
          <PeriodFields choice={period.choice} />
          <button type="submit" className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-foreground">
            Show
          </button>
        </form>
      </section>

      <section aria-labelledby="portal-therapy" className="flex flex-col gap-6">
        <h2 id="portal-therapy" className="text-2xl font-semibold">
          Therapy and adherence
        </h2>
        {section('monthly')}
        {section('pdc-distribution')}
        {section('persistence')}
        {section('refill-gaps')}
      </section>

      <section aria-labelledby="portal-doses" className="flex flex-col gap-6">
        <h2 id="portal-doses" className="text-2xl font-semibold">
          Dose timing and missed doses
        </h2>
        <p data-testid="worst-window">
          {worst === null
            ? `Worst window: not named — no hour of the week has both its confirmed and missed counts shown over at least 11 doses (${periodText}).`
            : `Worst window: ${weekdayNames[worst.weekday]} ${String(worst.hour).padStart(2, '0')}:00–${String(worst.hour).padStart(2, '0')}:59, where ${formatPercent(worst.share)} of ${formatCount(worst.scheduled)} doses were missed (${periodText}).`}
        </p>
        {section('doses-confirmed')}
        {section('doses-missed')}
        {section(
          'missed-reasons',
          <p className="text-sm text-muted">
            Reasons patients give in the adherence-barriers survey are in the next table. It counts patients rather than replies, so the two
            tables are not added together.
          </p>,
        )}
        {section('survey-reasons')}
      </section>

      <section aria-labelledby="portal-breakdowns" className="flex flex-col gap-6">
        <h2 id="portal-breakdowns" className="text-2xl font-semibold">
          {government ? 'Breakdowns and equity' : 'Breakdowns'}
        </h2>
        {section('by-region')}
        {section('by-age-band')}
        {section('by-sex')}
        {breakdowns.map((id) => section(id))}
      </section>

      {government ? <NationalImpactLink view={view} /> : null}

      {/* The demand forecast (DemandForecastSection), computed by its own use case for the view's products. */}
      {forecastSlot ?? null}

      <p className="text-sm text-muted">
        Back to the <a href={routes.home}>home page</a>.
      </p>
    </div>
  );
}

/** The shared period kept through the filter form (the period bar has its own form and keeps the filters). */
function PeriodFields({ choice }: { choice: PeriodChoice }) {
  const params = new URLSearchParams(hrefWithPeriod('', choice).replace(/^\?/, ''));
  return (
    <>
      {[...params].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
