import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { DemandForecastSection } from '@/features/portal/components/demand-forecast-section';
import { PortalViewPanel } from '@/features/portal/components/portal-view';
import { forecastProductDemand, getPortalView, parsePortalFilterQuery, portalFilterQueryOf, portalRefusal } from '@/features/portal';
import { hasPermission } from '@/lib/permissions';
import { parsePeriodQuery } from '@/lib/period-query';
import { routes } from '@/lib/routes';
import { getSignedInUser } from '@/lib/server/current-user';
import { requestContextOf } from '@/lib/server/request-context';
import { headers } from 'next/headers';

export const metadata: Metadata = { title: 'Manufacturing Portal' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ManufacturingPortalPage({ searchParams }: Props) {
  const query = await searchParams;
  const actor = await getSignedInUser();
  const heading = <h1 className="text-3xl font-semibold tracking-tight">Manufacturing Portal</h1>;
  // Refused in words; the use case refuses (and audits) on the server as well for any other caller.
  if (!hasPermission(actor.role, 'portal:view')) {
    return (
      <article className="flex flex-col gap-6">
        {heading}
        <p role="alert" className="rounded-xl border border-danger p-4" data-testid="portal-refused">
          {portalRefusal}
        </p>
      </article>
    );
  }
  const period = parsePeriodQuery(query);
  const filters = parsePortalFilterQuery(query);
  const database = getDatabase();
  const request = requestContextOf(await headers());
  const view = await getPortalView({ database, actor, choice: period.choice, filters: filters.filters, request, now: new Date() });
  // The forecast for the products the view shows (already narrowed to the viewer's scope and filters).
  const forecast =
    view.status === 'ok'
      ? await forecastProductDemand({
          database,
          actor,
          productIds: view.productIds,
          // Not applied to the forecast (its pre-aggregate has no region): the section says the forecast covers every region.
          region: view.filters.region,
          request,
          now: new Date(),
        })
      : null;
  // Its CSVs carry the view's filters; the forecast is as of the latest data, so no period.
  const forecastCsvHref = (table: string) =>
    view.status === 'ok'
      ? `/api/portal/export?${new URLSearchParams({ ...definedOnly(portalFilterQueryOf(view.filters)), table }).toString()}`
      : '';
  return (
    <article className="flex flex-col gap-6">
      {heading}
      <p className="max-w-3xl text-muted">
        How patients take the medicines: who is on therapy, refill adherence (PDC), persistence, refill gaps, when doses are missed and why,
        and who is left behind — as aggregates only, with small groups hidden for every viewer.
      </p>
      <PortalViewPanel
        view={view}
        path={routes.manufacturingPortal}
        addressProblem={filters.problem}
        periodProblem={period.problem}
        forecastSlot={
          forecast === null ? null : (
            <DemandForecastSection
              forecast={forecast}
              csvHrefs={{ forecast: forecastCsvHref('demand-forecast'), backtest: forecastCsvHref('demand-backtest') }}
            />
          )
        }
      />
    </article>
  );
}

const definedOnly = (query: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== null));
