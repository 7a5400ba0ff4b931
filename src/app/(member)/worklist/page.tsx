import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { RiskWorklistView } from '@/features/risk/components/risk-worklist-view';
import { listRiskWorklist } from '@/features/risk/server/list-risk-worklist';
import { hasPermission } from '@/lib/permissions';
import { getSignedInUser } from '@/lib/server/current-user';
import { recordRiskContactAction } from './actions';

export const metadata: Metadata = { title: 'Risk worklist' };

export default async function RiskWorklistPage() {
  const actor = await getSignedInUser();
  const allowed = hasPermission(actor.role, 'patients:list');
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Risk worklist</h1>
      {allowed ? (
        <RiskWorklistView worklist={await listRiskWorklist({ database: getDatabase(), actor })} recordContact={recordRiskContactAction} />
      ) : (
        <p>
          The risk worklist is for care teams: clinicians see their organisations’ patients ranked by their risk of missing doses next week.
        </p>
      )}
    </article>
  );
}
