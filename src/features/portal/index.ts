/**
 * The manufacturer and government portal (/app/manufacturing, issue 15 items 1–3; docs/decisions/039).
 * Server use cases; the page's components are in ./components.
 */
export { exportPortalTable } from './server/export-portal-table';
export { forecastProductDemand } from './server/forecast-product-demand';
export type { DemandForecastDto } from './demand-forecast-dto';
export { getPortalView, portalRefusal, type PortalView } from './server/get-portal-view';
export { parsePortalFilterQuery, portalFilterQueryOf, portalTableIdSchema } from './schemas';
export type { PortalFilters, PortalTable, PortalValue } from './portal-tables';
export { ensurePortalRefresh, queuePortalRefresh } from './server/portal-refresh-job';
export { portalRefreshJobKind } from './schemas';
