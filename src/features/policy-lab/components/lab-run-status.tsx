'use client';

import { ProgressBar } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { formatCount } from '@/lib/format';
import type { LabRunProgress } from '../schemas';

const pollMilliseconds = 1000;

const percentOf = (run: LabRunProgress) =>
  run.progressTotal ? Math.min(100, Math.round((run.progressDone / run.progressTotal) * 100)) : run.status === 'succeeded' ? 100 : 0;

const finished = (run: LabRunProgress) => run.status === 'succeeded' || run.status === 'failed';

/**
 * Follows a lab run while it is queued or running (GET /api/policy-lab/runs/<id> once a second) and, once it
 * has finished, asks the server for the page again, which then shows the run's figures. The run continues on
 * the server if the page is left.
 */
export function LabRunStatus({ run: initial, label }: { run: LabRunProgress; label: string }) {
  const router = useRouter();
  const [run, setRun] = useState(initial);
  const [lost, setLost] = useState<string | null>(null);
  useEffect(() => {
    if (finished(initial)) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const response = await fetch(`/api/policy-lab/runs/${encodeURIComponent(initial.id)}`).catch(() => null);
      if (stopped) return;
      if (response?.status === 401) {
        setLost('Your session has ended. Sign in again to follow the run.');
        return;
      }
      if (response?.status === 404) {
        setLost('That lab run no longer exists.');
        return;
      }
      const next = response?.ok ? ((await response.json().catch(() => null)) as LabRunProgress | null) : null;
      if (stopped) return;
      if (next !== null) {
        setRun(next);
        if (finished(next)) {
          router.refresh();
          return;
        }
      }
      timer = setTimeout(() => void poll(), pollMilliseconds);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [initial, router]);

  const percent = percentOf(run);
  // Coarse steps (quarters) for the live region, so a screen reader is not read every second's change.
  const announcement =
    run.status === 'queued'
      ? `${label}: queued.`
      : run.status === 'running'
        ? `${label}: ${Math.floor(percent / 25) * 25}% simulated.`
        : run.status === 'succeeded'
          ? `${label}: finished.`
          : `${label}: failed.`;
  return (
    <section className="flex flex-col gap-2 rounded-2xl border border-separator bg-surface p-4" data-testid="lab-run-status">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {run.status === 'failed' ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {label} failed: {run.error ?? 'no reason was recorded.'} It is started again when the page is opened after ten minutes.
        </p>
      ) : (
        <>
          <ProgressBar aria-label={`${label} progress`} value={percent} className="max-w-xl">
            <ProgressBar.Track>
              <ProgressBar.Fill />
            </ProgressBar.Track>
          </ProgressBar>
          <p className="text-sm text-muted">
            {label}:{' '}
            {run.status === 'queued'
              ? 'queued, waiting for the simulation worker (one simulation runs at a time).'
              : run.status === 'running'
                ? `${percent}% simulated · ${formatCount(Math.round(run.rate ?? 0))} patient-days per second.`
                : 'finished; loading the figures…'}{' '}
            The figures appear here when it finishes; the run continues on the server if you leave the page.
          </p>
        </>
      )}
      {lost !== null ? (
        <p role="alert" className="text-sm">
          {lost}
        </p>
      ) : null}
    </section>
  );
}
