import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { ComplianceJourneyView } from '@/features/patient-adherence/components/compliance-journey-view';
import { getComplianceJourney } from '@/features/patient-adherence/server/get-compliance-journey';
import { getSessionUser } from '@/lib/server/session';

export const metadata: Metadata = { title: '12-Month Compliance Journey' };

export default async function ComplianceJourneyPage() {
  const journey = await getComplianceJourney({ database: getDatabase(), actor: await getSessionUser(await headers()) });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">12-Month Compliance Journey</h1>
      <p className="max-w-3xl text-muted">
        How a cohort takes its medicines over the first 12 months from each patient’s first fill in the last year: the spread of the
        proportion of days covered month by month, and how many are still on treatment (a gap of more than 60 days without medicine counts
        as stopping), by persona and by product.
      </p>
      <ComplianceJourneyView journey={journey} />
    </article>
  );
}
