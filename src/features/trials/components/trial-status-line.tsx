import { Chip } from '@heroui/react';
import type { TrialOverview } from '../contracts';
import { formatCount, formatDate } from '@/lib/format';
import { trialStatusLabels } from './trial-format';

/** Where the trial stands, and the synthetic-data label wherever a demo trial is shown. */
export function TrialStatusLine({ overview }: { overview: TrialOverview }) {
  const { protocol, consort } = overview;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="trial-status">
      {protocol.synthetic ? (
        <Chip variant="soft" color="warning">
          synthetic demo data
        </Chip>
      ) : null}
      <p>
        Status on {formatDate(overview.asOf.slice(0, 10))}: {trialStatusLabels[protocol.status]}; {formatCount(consort.randomised)}{' '}
        participants randomised
        {protocol.targetEnrolment === null ? '' : ` of a target of ${formatCount(protocol.targetEnrolment)}`}.
      </p>
    </div>
  );
}
