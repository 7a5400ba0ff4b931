import type { Metadata } from 'next';
import { createApiKeyAction, revokeApiKeyAction } from '@/app/_actions/data-source-actions';
import { getImportBatchAction, undoImportBatchAction } from '@/app/_actions/import-batch-actions';
import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import { getDatabase } from '@/db/client';
import { listImportBatches } from '@/features/data-import';
import { DataSourcesPanel } from '@/features/data-sources/components/data-sources-panel';
import { ImportBatches } from '@/features/data-sources/components/import-batches';
import { getDataSourceOverview } from '@/features/data-sources/server/get-data-source-overview';
import { formatCount } from '@/lib/format';
import { parsePeriodQuery } from '@/lib/period-query';
import { hasPermission } from '@/lib/permissions';
import { patientEngagementPrefix } from '@/lib/routes';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Data Integration Sources' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const scopeWords = {
  all: 'on record',
  organisation: 'of your organisations',
  companies: 'dispensed your companies’ products',
  'no-company': 'you can view',
};

export default async function DataSourcesPage({ searchParams }: Props) {
  const { choice, problem } = parsePeriodQuery(await searchParams);
  const actor = await getSignedInUser();
  const overview = await getDataSourceOverview({ database: getDatabase(), actor, choice });
  const { counts, period, scope } = overview.cohort;
  // Import history for those who import (administrators: every batch; clinicians: their own).
  const batches =
    actor !== null && hasPermission(actor.role, 'data:import') ? await listImportBatches({ database: getDatabase(), actor }) : null;
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Data Integration Sources</h1>
      <p className="max-w-3xl text-muted">
        Where the adherence data comes from: health records (FHIR R4), pharmacy dispensing files, smart pill bottles and apps through the
        dose-event API, and the simulator’s synthetic demo data. Imports run in the background; you can leave this page and come back.
      </p>
      <ReportingPeriodBar period={period} path={`${patientEngagementPrefix}data-sources`} problem={problem} />
      <p data-testid="cohort-counts">
        {formatCount(counts.withDispensingInPeriod)} with a dispensing in the period
        {counts.patients === null ? '' : ` of ${formatCount(counts.patients)} patients ${scopeWords[scope]}`} — the patients the home page
        and the compliance journey count for the same period.
      </p>
      <DataSourcesPanel overview={overview} createApiKey={createApiKeyAction} revokeApiKey={revokeApiKeyAction} />
      {batches !== null && actor !== null ? (
        <ImportBatches
          batches={batches}
          seesEveryBatch={hasPermission(actor.role, 'data:import-batches:any')}
          getBatch={getImportBatchAction}
          undoBatch={undoImportBatchAction}
        />
      ) : null}
    </article>
  );
}
