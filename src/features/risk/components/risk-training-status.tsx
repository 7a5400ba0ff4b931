'use client';

import { Button, ProgressBar } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useJobProgress } from '@/lib/hooks/use-job-progress';
import type { ActionResult } from '@/lib/server/action-result';

/**
 * Follows a training job while it runs and asks for the page again when it ends (the new version's stored
 * evaluation then shows); with `startTraining`, offers to train a new version with the default settings.
 */
export function RiskTrainingStatus({
  jobId: initialJobId,
  startTraining,
}: {
  jobId: string | null;
  startTraining: ((input: unknown) => Promise<ActionResult<{ jobId: string }>>) | null;
}) {
  const router = useRouter();
  const [jobId, setJobId] = useState(initialJobId);
  const [message, setMessage] = useState<string | null>(null);
  const { job } = useJobProgress(jobId, {
    onEnd: (end) => {
      if (end.kind === 'lost') setMessage('Training is under way on the server; reload this page in a minute to see its result.');
      else if (end.job.status === 'failed') setMessage(`Training failed: ${end.job.error ?? 'no reason was recorded'}.`);
      else router.refresh();
    },
  });
  const running = jobId !== null && message === null && (job === null || job.status === 'queued' || job.status === 'running');
  const percent = job?.progressTotal ? Math.round((job.progressDone / job.progressTotal) * 100) : 0;
  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      {running && (
        <ProgressBar aria-label="Training the risk model" value={percent} className="max-w-md">
          <ProgressBar.Track>
            <ProgressBar.Fill />
          </ProgressBar.Track>
        </ProgressBar>
      )}
      {running && <p className="text-sm text-muted">Training {job?.status === 'queued' ? 'is queued' : `${percent}% done`}.</p>}
      {message !== null && <p className="text-sm">{message}</p>}
      {startTraining !== null && (
        <div>
          <Button
            variant="secondary"
            isDisabled={running}
            onPress={async () => {
              setMessage(null);
              const result = await startTraining({});
              if (result.ok) setJobId(result.data.jobId);
              else setMessage(result.error.message);
            }}
          >
            Train a new version
          </Button>
        </div>
      )}
    </div>
  );
}
