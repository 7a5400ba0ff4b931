/** A stored `policy-lab-run` job as the lab pages see it. */
import 'server-only';
import type { JobRecord } from '@/lib/server/jobs';
import { labResultVersion, labRunInputSchema, type LabRun, type LabRunProgress, type LabSummary } from '../schemas';

function summaryOf(job: JobRecord): LabSummary | null {
  if (job.status !== 'succeeded' || job.result === null) return null;
  // Written by this feature's job handler (simulateLab); a result of another lab version is not this lab's.
  return job.result.labVersion === labResultVersion ? (job.result as unknown as LabSummary) : null;
}

export function toLabRunProgress(job: JobRecord): LabRunProgress {
  const input = labRunInputSchema.safeParse(job.payload);
  return {
    id: job.id,
    status: job.status,
    input: input.success ? input.data : null,
    progressDone: job.progressDone,
    progressTotal: job.progressTotal,
    rate: job.rate,
    error: job.error,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}

export function toLabRun(job: JobRecord): LabRun {
  return { ...toLabRunProgress(job), summary: summaryOf(job) };
}

/** The run without its (large) summary, for what only follows its progress. */
export function omitSummary(run: LabRun): LabRunProgress {
  const progress: Partial<LabRun> = { ...run };
  delete progress.summary;
  return progress as LabRunProgress;
}
