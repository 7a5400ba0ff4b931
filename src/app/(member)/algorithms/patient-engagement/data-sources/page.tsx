import type { Metadata } from 'next';
import { createApiKeyAction, revokeApiKeyAction } from '@/app/_actions/data-source-actions';
import { getImportBatchAction, undoImportBatchAction } from '@/app/_actions/import-batch-actions';
import { getDatabase } from '@/db/client';
import { listImportBatches } from '@/features/data-import';
import { DataSourcesPanel } from '@/features/data-sources/components/data-sources-panel';
import { ImportBatches } from '@/features/data-sources/components/import-batches';
import { getDataSourceOverview } from '@/features/data-sources/server/get-data-source-overview';
import { hasPermission } from '@/lib/permissions';
import { getCurrentUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Data Integration Sources' };

export default async function DataSourcesPage() {
  const actor = await getCurrentUser();
  const overview = await getDataSourceOverview({ database: getDatabase(), actor });
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
