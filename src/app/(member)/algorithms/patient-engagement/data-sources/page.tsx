import type { Metadata } from 'next';
import { createApiKeyAction, revokeApiKeyAction } from '@/app/_actions/data-source-actions';
import { getDatabase } from '@/db/client';
import { DataSourcesPanel } from '@/features/data-sources/components/data-sources-panel';
import { getDataSourceOverview } from '@/features/data-sources/server/get-data-source-overview';
import { getCurrentUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Data Integration Sources' };

export default async function DataSourcesPage() {
  const overview = await getDataSourceOverview({ database: getDatabase(), actor: await getCurrentUser() });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Data Integration Sources</h1>
      <p className="max-w-3xl text-muted">
        Where the adherence data comes from: health records (FHIR R4), pharmacy dispensing files, smart pill bottles and apps through the
        dose-event API, and the simulator’s synthetic demo data. Imports run in the background; you can leave this page and come back.
      </p>
      <DataSourcesPanel overview={overview} createApiKey={createApiKeyAction} revokeApiKey={revokeApiKeyAction} />
    </article>
  );
}
