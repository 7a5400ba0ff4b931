import type { Metadata } from 'next';
import Link from 'next/link';
import { getDatabase } from '@/db/client';
import { createTrialAction } from '@/app/_actions/trial-actions';
import { defaultAnalysisPlan, listTrials } from '@/features/trials';
import { CreateTrialForm } from '@/features/trials/components/create-trial-form';

import { formatDate } from '@/lib/format';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Trials' };

export default async function TrialsPage() {
  const viewer = await getSignedInUser();
  const trials = await listTrials({ database: getDatabase(), viewer });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Trials</h1>
      <p className="max-w-3xl text-muted">
        Every randomised trial on the platform; each page shows its protocol, participant flow and results.
      </p>
      {trials.length === 0 ? (
        <p>No trials yet.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Trials">
          {trials.map((trial) => (
            <li key={trial.id}>
              <Link href={`/trials/${encodeURIComponent(trial.id)}`} className="font-medium text-accent underline">
                {trial.name}
              </Link>{' '}
              <span className="text-sm text-muted">
                — {trial.weeks} weeks of follow-up each, starting {formatDate(trial.startDate)}
                {trial.synthetic ? '; synthetic demo data' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {viewer.role === 'admin' ? (
        <CreateTrialForm
          today={new Date().toISOString().slice(0, 10)}
          defaultAnalysisPlan={defaultAnalysisPlan}
          create={createTrialAction}
        />
      ) : null}
    </article>
  );
}
