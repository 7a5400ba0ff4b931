import 'server-only';
/**
 * The manufacturer and government portal (/app/manufacturing, issue 15 items 1–3): for a manufacturer their
 * companies' products (their selection, else all their companies'), for a government official or an admin
 * every company's; by product, company and region filters and the shared reporting period. Every figure
 * goes through whole-page small-cell suppression, for every viewer (a portal of aggregates), and every
 * view is recorded in the audit log with who asked, which view and which filters.
 */
import type { Database } from '@/db/client';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { findReportingPeriod, type PeriodChoice, type PeriodView, periodView } from '@/db/queries/reporting-period';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import {
  applyPortalFilters,
  describePortalPageFromTotals,
  type PortalAudience,
  type PortalFigures,
  type PortalFilters,
} from '../portal-tables';
import { filterOptionsOf, findPortalRegions, findScopeProducts, loadPortalPageInput, type PortalFilterOptions } from './load-portal-input';
import { findServedPortalPeriod } from './portal-served-period';

export const portalRefusal =
  'The manufacturing portal is for drug manufacturers, government officials and admins. Patients and clinicians see their own figures on the other pages.';

export type PortalView =
  | { status: 'no-company' }
  | {
      status: 'ok';
      audience: PortalAudience;
      /** The period the figures are for: the one asked for, or while that is being built the newest built one (`pending`). */
      period: PeriodView;
      /**
       * Set when the figures are of an earlier as-of day than the data's (decision 060): the period asked for, the
       * first day of data not yet in the figures, and the state of the refresh building the asked period.
       */
      pending: { asked: PeriodView; newDataFrom: string; refresh: 'queued' | 'running' } | null;
      filters: PortalFilters;
      /** Filters in the address that name nothing the viewer may see (ignored, and said so). */
      filterProblem: string | null;
      options: PortalFilterOptions;
      /** The companies whose products the view covers (a manufacturer's own; every company for officials). */
      companies: string[];
      /** Product ids the view covers (for the demand forecast section the lead mounts). */
      productIds: string[];
      figures: PortalFigures;
    };

export async function getPortalView(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  choice?: PeriodChoice;
  filters: PortalFilters;
  /** Which figure was asked for, for the audit log: the page, or one table's CSV. */
  purpose?: { kind: 'page' } | { kind: 'csv'; table: string };
  request?: RequestContext;
  now: Date;
  /** 'direct': every figure computed per request from the records (the reference the pre-aggregates are tested against). */
  source?: 'aggregate' | 'direct';
  /** Tests: the scope size from which a period not built yet is shown from the newest built one (portal-served-period.ts). */
  builtPeriodMinPatients?: number;
}): Promise<PortalView> {
  const { database, request } = options;
  const purpose = options.purpose ?? { kind: 'page' };
  const action = purpose.kind === 'page' ? 'portal.view' : 'portal.export-csv';
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'portal:view',
    message: portalRefusal,
    audit: { database, action, ...request },
  });
  const audience: PortalAudience = actor.role === 'drug-manufacturer' ? 'manufacturer' : 'government';
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') {
    await recordAuditEvent(database, {
      action,
      outcome: 'success',
      actorUserId: actor.id,
      ...request,
      details: { view: audience, scope: scope.kind },
    });
    return { status: 'no-company' };
  }
  const [asked, scopeProducts] = await Promise.all([
    findReportingPeriod({ database, scope, choice: options.choice, now: options.now }),
    findScopeProducts(database, scope),
  ]);
  const regions = await findPortalRegions(
    database,
    scopeProducts.map((product) => product.id),
  );
  const optionsOfView = filterOptionsOf(scopeProducts, regions);
  // A filter naming something outside the viewer's scope is dropped (never widened into another company's data).
  const problems: string[] = [];
  const filters: PortalFilters = { ...options.filters };
  if (filters.productId !== null && !optionsOfView.products.some((product) => product.id === filters.productId)) {
    problems.push('product: not one of the products you may see');
    filters.productId = null;
  }
  if (filters.companyId !== null && !optionsOfView.companies.some((company) => company.id === filters.companyId)) {
    problems.push('company: not one of the companies you may see');
    filters.companyId = null;
  }
  if (filters.region !== null && !regions.includes(filters.region)) {
    problems.push('region: no patient of these products lives there');
    filters.region = null;
  }
  // A large scope's period not built yet is shown from the newest built one of the same choice, and said so.
  const chosen = applyPortalFilters({ audience, period: asked, products: scopeProducts, patients: [], fills: [] }, filters).products;
  const { period, pending } =
    options.source === 'direct'
      ? { period: asked, pending: null }
      : await findServedPortalPeriod({
          database,
          asked,
          chosen,
          region: filters.region,
          now: options.now,
          minPatients: options.builtPeriodMinPatients,
        });
  const input = await loadPortalPageInput({ database, audience, period, scopeProducts, filters, now: options.now, source: options.source });
  const { figures } = describePortalPageFromTotals(input);
  const view = periodView(period);
  await recordAuditEvent(database, {
    action,
    outcome: 'success',
    actorUserId: actor.id,
    ...request,
    details: {
      view: audience,
      ...(purpose.kind === 'csv' ? { table: purpose.table } : {}),
      scope: scope.kind,
      start: view.start,
      end: view.end,
      productId: filters.productId,
      companyId: filters.companyId,
      region: filters.region,
      ...(pending === null ? {} : { newDataFrom: isoFromDayNumber(pending.newDataFrom) }),
    },
  });
  return {
    status: 'ok',
    audience,
    period: view,
    pending:
      pending === null
        ? null
        : { asked: periodView(pending.asked), newDataFrom: isoFromDayNumber(pending.newDataFrom), refresh: pending.refresh },
    filters,
    filterProblem: problems.length === 0 ? null : `Some filters in the address were ignored (${problems.join('; ')}).`,
    options: optionsOfView,
    companies:
      scope.kind === 'companies' ? scope.companies.map((company) => company.name) : optionsOfView.companies.map((company) => company.name),
    productIds: input.products.map((product) => product.id),
    figures,
  };
}
