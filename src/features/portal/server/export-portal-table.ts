import 'server-only';
/**
 * One portal table as CSV ("Download CSV"): the same view, filters, period and suppression as the page —
 * hidden counts are written as "<11" or "suppressed", never as numbers — recorded in the audit log like a
 * page view (which table, which filters). The demand forecast's two tables go the same way, as of the latest data.
 */
import type { Database } from '@/db/client';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import { csvLine } from '@/lib/csv';
import { AppError } from '@/lib/errors';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { PortalFilters, PortalTable, PortalValue } from '../portal-tables';
import { exportForecastTable, isForecastTable } from './export-forecast-table';
import { getPortalView } from './get-portal-view';

/** A value as the CSV writes it: counts and shares as numbers (shares as fractions, 4 decimals), hidden ones by their label. */
export function csvValue(value: PortalValue): string | number {
  switch (value.kind) {
    case 'count':
      return value.value;
    case 'share':
    case 'number':
      return Number(value.value.toFixed(4));
    case 'hidden':
    case 'none':
      return value.label;
    case 'text':
      return value.value;
  }
}

export function portalTableCsv(table: PortalTable, context: { period: string; population: string }): string {
  return [
    csvLine([`# ${table.title}`]),
    csvLine([
      `# Period: ${context.period}. ${table.population} Counts of 1 to 10 are shown as <11; "suppressed" hides a larger count so that no small one can be worked out.`,
    ]),
    csvLine(table.columns),
    ...table.rows.map((row) => csvLine([row.label, ...row.values.map(csvValue)])),
  ].join('');
}

export async function exportPortalTable(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  table: string;
  choice?: PeriodChoice;
  filters: PortalFilters;
  request: RequestContext;
  now: Date;
  /** Tests: see getPortalView. */
  builtPeriodMinPatients?: number;
}): Promise<{ filename: string; csv: string }> {
  // The demand forecast's two tables: the same filters (product, company), as of the latest data rather than a period.
  if (isForecastTable(options.table))
    return exportForecastTable({
      database: options.database,
      actor: options.actor,
      table: options.table,
      filters: options.filters,
      request: options.request,
      now: options.now,
    });
  const view = await getPortalView({ ...options, purpose: { kind: 'csv', table: options.table } });
  if (view.status === 'no-company') throw new AppError('forbidden', 'You belong to no drug company yet, so there is no table to download.');
  const table = view.figures.tables.find((candidate) => candidate.id === options.table);
  if (table === undefined) throw new AppError('validation', `table: "${options.table}" is not one of the portal’s tables`);
  return {
    filename: `portal-${table.id}-${view.period.start}-to-${view.period.end}.csv`,
    csv: portalTableCsv(table, {
      // While a newer period is built the file is of the period shown (decision 060) and says so.
      period:
        `${view.period.start} to ${view.period.end}, data up to ${view.period.asOf}` +
        (view.pending === null
          ? ''
          : ` (the latest period the portal's summaries hold; newer data from ${view.pending.newDataFrom} up to ${view.pending.asked.asOf} are being added)`),
      population: table.population,
    }),
  };
}
