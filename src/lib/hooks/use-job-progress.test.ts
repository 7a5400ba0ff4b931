import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobDto } from '@/lib/jobs-dto';
import { followJob, type JobEnd, type JobProgress } from './use-job-progress';

const jobId = '0b6c2f0e-5a7d-4c1e-9f00-3d2b1a000001';

function jobAt(status: JobDto['status'], progressDone: number): JobDto {
  return {
    id: jobId,
    kind: 'import-csv',
    status,
    progressDone,
    progressTotal: 10,
    rate: 5,
    result: status === 'succeeded' ? { resources: 10 } : null,
    error: null,
    attempts: status === 'queued' ? 0 : 1,
    runAt: '2026-11-24T08:00:00.000Z',
    createdAt: '2026-11-24T08:00:00.000Z',
    startedAt: null,
    finishedAt: null,
  };
}

const answer = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status });

/** Follows with answers given in turn; time is fake, so each poll comes when the test advances it. */
function follow(answers: (Response | Error)[]) {
  const fetchJob = vi.fn(async (url: string) => {
    void url;
    const next = answers.shift();
    if (next === undefined) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  });
  const updates: JobProgress<Record<string, unknown>>[] = [];
  const ends: JobEnd<Record<string, unknown>>[] = [];
  const stop = followJob({
    jobId,
    fetchJob,
    onUpdate: (progress) => updates.push(progress),
    onEnd: (end) => ends.push(end),
    intervalMilliseconds: 1000,
    now: Date.now,
  });
  return { fetchJob, updates, ends, stop };
}

describe('followJob (what useJobProgress runs)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls GET /api/jobs/<id> every interval, through a failed request, and stops once the job has finished', async () => {
    const { fetchJob, updates, ends } = follow([
      answer(200, jobAt('queued', 0)),
      new TypeError('network down'),
      answer(500, {}),
      answer(200, jobAt('running', 5)),
      answer(200, jobAt('succeeded', 10)),
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchJob).toHaveBeenCalledWith(`/api/jobs/${jobId}`);
    expect(updates.map((update) => update.job?.status)).toEqual(['queued']);
    await vi.advanceTimersByTimeAsync(4000);
    expect(updates.map((update) => [update.job?.status, update.followedMilliseconds])).toEqual([
      ['queued', 0],
      ['running', 3000],
      ['succeeded', 4000],
    ]);
    expect(ends).toEqual([{ kind: 'finished', job: jobAt('succeeded', 10) }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(5);
  });

  it.each([
    [404, 'not-found'],
    [400, 'not-found'],
    [401, 'signed-out'],
  ] as const)('stops following on %i and says why (%s)', async (status, reason) => {
    const { fetchJob, ends } = follow([answer(status, { success: false })]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(ends).toEqual([{ kind: 'lost', reason }]);
    expect(fetchJob).toHaveBeenCalledTimes(1);
  });

  it('stops polling when stopped (the component unmounted)', async () => {
    const { fetchJob, updates, stop } = follow([answer(200, jobAt('running', 1)), answer(200, jobAt('running', 2))]);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(1);
    expect(updates).toHaveLength(1);
  });

  it('ignores an answer that arrives after it was stopped', async () => {
    const { fetchJob, updates, ends, stop } = follow([answer(200, jobAt('succeeded', 10))]);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchJob).toHaveBeenCalledTimes(1);
    expect(updates).toEqual([]);
    expect(ends).toEqual([]);
  });
});
