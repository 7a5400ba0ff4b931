import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client';
import { dataSources, dispensings, doseEvents, jobs, messages, patients } from '@/db/schema';
import type { JobDto } from '@/lib/jobs-dto';
import { type CohortScope, findCohortScope } from '@/db/queries/cohort-scope';
import {
  type CohortCounts,
  countCohortPatients,
  findReportingPeriod,
  type PeriodChoice,
  type PeriodView,
  periodView,
} from '@/db/queries/reporting-period';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { hasPermission } from '@/lib/permissions';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';

export type SourceVolume = {
  source: string;
  patients: number;
  dispensings: number;
  doseEvents: number;
  messages: number;
  lastRecord: string | null;
};
export type ApiSource = { id: string; name: string; status: string; lastActivityAt: string | null; createdAt: string; doseEvents: number };
/** A recent import as the page lists it: the parts of the one job DTO (GET /api/jobs/[id]) the list needs. */
export type ImportJobSummary = Pick<
  JobDto,
  'id' | 'kind' | 'status' | 'progressDone' | 'progressTotal' | 'rate' | 'error' | 'result' | 'createdAt'
>;

export type DataSourceOverview = {
  /** The viewer's cohort over the shared reporting period: the same period and count as the home page and the journey. */
  cohort: { period: PeriodView; counts: CohortCounts; scope: CohortScope['kind'] };
  /** Every record on file per source, whatever its date or patient. */
  volumes: SourceVolume[];
  apiSources: ApiSource[];
  imports: ImportJobSummary[];
  canImport: boolean;
  canManageKeys: boolean;
};

/** What data came from where: volume and recency per source, the dose-event API sources, recent imports. */
export async function getDataSourceOverview(options: {
  database: Database;
  actor: SessionUser | null;
  /** The reporting period chosen (default: the 12 months up to the viewer's data's last day). */
  choice?: PeriodChoice;
  now?: Date;
}): Promise<DataSourceOverview> {
  const actor = requireActor(options.actor);
  const { database } = options;
  const scope = await findCohortScope({ database, actor });
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });
  const counts = await countCohortPatients({ database, scope, period, suppressed: seesSuppressedAggregates(actor.role) });
  // The part of `source` before ':' names the kind of source (fhir, pharmacy-csv, simulation, dose-event-api).
  const kind = (column: AnyPgColumn) => sql<string>`split_part(${column}, ':', 1)`;
  const count = async (table: PgTable, column: AnyPgColumn) =>
    database
      .select({ source: kind(column), rows: sql<number>`count(*)::int` })
      .from(table)
      .groupBy(kind(column));
  const [patientCounts, dispensingCounts, doseCounts, messageCounts, lastDispensing] = await Promise.all([
    count(patients, patients.source),
    count(dispensings, dispensings.source),
    count(doseEvents, doseEvents.source),
    count(messages, messages.source),
    database
      .select({ source: kind(dispensings.source), last: sql<string>`max(${dispensings.dispensedOn})::text` })
      .from(dispensings)
      .groupBy(kind(dispensings.source)),
  ]);
  const names = new Set([...patientCounts, ...dispensingCounts, ...doseCounts, ...messageCounts].map((row) => row.source));
  const lookup = (rows: { source: string; rows: number }[], source: string) => rows.find((row) => row.source === source)?.rows ?? 0;
  const volumes = [...names].sort().map((source) => ({
    source,
    patients: lookup(patientCounts, source),
    dispensings: lookup(dispensingCounts, source),
    doseEvents: lookup(doseCounts, source),
    messages: lookup(messageCounts, source),
    lastRecord: lastDispensing.find((row) => row.source === source)?.last ?? null,
  }));

  const apiRows = await database
    .select({
      id: dataSources.id,
      name: dataSources.name,
      status: dataSources.status,
      lastActivityAt: dataSources.lastActivityAt,
      createdAt: dataSources.createdAt,
    })
    .from(dataSources)
    .where(eq(dataSources.kind, 'dose-event-api'))
    .orderBy(desc(dataSources.createdAt));
  const apiCounts = await database
    .select({ source: doseEvents.source, rows: sql<number>`count(*)::int` })
    .from(doseEvents)
    .where(sql`${doseEvents.source} like 'dose-event-api:%'`)
    .groupBy(doseEvents.source);
  const apiSources = apiRows.map((row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    doseEvents: apiCounts.find((entry) => entry.source === `dose-event-api:${row.id}`)?.rows ?? 0,
  }));

  const importRows = await database
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      progressDone: jobs.progressDone,
      progressTotal: jobs.progressTotal,
      rate: jobs.rate,
      error: jobs.error,
      result: jobs.result,
      createdAt: jobs.createdAt,
    })
    .from(jobs)
    .where(sql`${jobs.kind} like 'import-%'`)
    .orderBy(desc(jobs.createdAt))
    .limit(20);

  return {
    cohort: { period: periodView(period), counts, scope: scope.kind },
    volumes,
    apiSources,
    imports: importRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    canImport: hasPermission(actor.role, 'data:import'),
    canManageKeys: hasPermission(actor.role, 'dose-event-sources:manage'),
  };
}
