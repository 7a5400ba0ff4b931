import { useEffect, useRef, useState } from 'react';
import { isJobFinished, type JobDto } from '@/lib/jobs-dto';

/** How following a job ended: it finished (succeeded or failed), or it cannot be followed any more. */
export type JobEnd<Result> =
  | { kind: 'finished'; job: JobDto<Result> }
  /** not-found: no such job, or not this user's (or a malformed id); signed-out: the session ended. */
  | { kind: 'lost'; reason: 'not-found' | 'signed-out' };

export type JobProgress<Result> = {
  /** The job as last read; null until the first answer. */
  job: JobDto<Result> | null;
  /** How long the page had been following the job at that answer (for "still waiting" notices). */
  followedMilliseconds: number;
};

/**
 * Polls GET /api/jobs/<id> until the job finishes or cannot be followed; returns a stop function. A failed
 * request (network, server error) is tried again at the next interval. Pure of React, so it is testable alone.
 */
export function followJob<Result = Record<string, unknown>>(options: {
  jobId: string;
  onUpdate: (progress: JobProgress<Result>) => void;
  onEnd: (end: JobEnd<Result>) => void;
  intervalMilliseconds?: number;
  fetchJob?: (url: string) => Promise<Response>;
  now?: () => number;
}): () => void {
  const fetchJob = options.fetchJob ?? ((url: string) => fetch(url));
  const now = options.now ?? Date.now;
  const startedAt = now();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    const response = await fetchJob(`/api/jobs/${encodeURIComponent(options.jobId)}`).catch(() => null);
    if (stopped) return;
    if (response?.status === 400 || response?.status === 404 || response?.status === 401) {
      options.onEnd({ kind: 'lost', reason: response.status === 401 ? 'signed-out' : 'not-found' });
      return;
    }
    if (response?.ok) {
      const job = (await response.json().catch(() => null)) as JobDto<Result> | null;
      if (stopped) return;
      if (job !== null) {
        options.onUpdate({ job, followedMilliseconds: now() - startedAt });
        if (isJobFinished(job.status)) {
          options.onEnd({ kind: 'finished', job });
          return;
        }
      }
    }
    timer = setTimeout(() => void poll(), options.intervalMilliseconds ?? 1000);
  };
  void poll();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}

const notFollowing = { job: null, followedMilliseconds: 0 };

/**
 * Follows a background job (null: none) until it finishes, the page stops following it, or the component
 * unmounts. The job keeps running on the server if the page is left. `Result` names what the job's handler
 * returns; `onEnd` is called once, with the latest callback given.
 */
export function useJobProgress<Result = Record<string, unknown>>(
  jobId: string | null,
  options: { onEnd?: (end: JobEnd<Result>) => void; intervalMilliseconds?: number } = {},
): JobProgress<Result> {
  const [progress, setProgress] = useState<JobProgress<Result>>(notFollowing);
  const onEnd = useRef(options.onEnd);
  useEffect(() => {
    onEnd.current = options.onEnd;
  });
  const { intervalMilliseconds } = options;
  useEffect(() => {
    if (jobId === null) return;
    const stop = followJob<Result>({ jobId, intervalMilliseconds, onUpdate: setProgress, onEnd: (end) => onEnd.current?.(end) });
    return () => {
      stop();
      setProgress(notFollowing);
    };
  }, [jobId, intervalMilliseconds]);
  return progress;
}
