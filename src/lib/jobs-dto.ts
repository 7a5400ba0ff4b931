/**
 * What a page sees of a background job (GET /api/jobs/[id]): its state, progress and outcome. Pure, so the
 * route and the browser share it; the payload (an uploaded file) and the checkpoint never leave the server.
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** `Result` is what the job's handler returns; a page that knows the kind of job may name it. */
export type JobDto<Result = Record<string, unknown>> = {
  id: string;
  kind: string;
  status: JobStatus;
  progressDone: number;
  progressTotal: number | null;
  /** Units per second over the run so far. */
  rate: number | null;
  result: Result | null;
  /** Why it failed; while it waits for a retry (status queued, attempts > 0), why the last attempt failed. */
  error: string | null;
  /** Runs started so far. */
  attempts: number;
  /** Not started before this time (ISO 8601): scheduled work, or the wait before a retry. */
  runAt: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

/** A finished job changes no more: its page can stop following it. */
export function isJobFinished(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed';
}
