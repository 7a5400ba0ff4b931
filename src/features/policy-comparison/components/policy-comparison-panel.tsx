'use client';

import { Button, Description, FieldError, Form, Input, Label, ProgressBar, TextField } from '@heroui/react';
import { type FormEvent, useState } from 'react';
import { useJobProgress } from '@/lib/hooks/use-job-progress';
import type { JobDto } from '@/lib/jobs-dto';
import { formatCount } from '@/lib/format';
import { fieldErrorsOf } from '@/lib/parse-input';
import type { ActionResult } from '@/lib/server/action-result';
import { type ComparisonOutcome, comparisonLimits, comparisonSettingsSchema, type PolicyComparison } from '../schemas';
import { ComparisonResults } from './comparison-results';

type Props = {
  productName: string;
  initial: PolicyComparison;
  /** A background run started earlier (the page's ?job=), followed again after the page was left. */
  resumeJobId?: string | null;
  runComparison: (input: unknown) => Promise<ActionResult<ComparisonOutcome>>;
};

/** A queued job nobody has started after this long is worth a word: the server may have no worker for it. */
const unclaimedNoticeMilliseconds = 15_000;

/** Why the page stopped following a run it could not read any more. */
const lostRunMessages = {
  'not-found': 'That background run is not yours or no longer exists.',
  'signed-out': 'Your session has ended. Sign in again to follow the run.',
} as const;

function JobProgress({ job, waitingLong }: { job: JobDto<PolicyComparison> | null; waitingLong: boolean }) {
  const percent = job?.progressTotal ? Math.min(100, Math.round((job.progressDone / job.progressTotal) * 100)) : 0;
  const text =
    job === null || job.status === 'queued'
      ? waitingLong
        ? 'Still waiting for the server to start the run. It starts as soon as a background worker is free.'
        : 'Queued: waiting to start…'
      : `${percent}% simulated · ${formatCount(Math.round(job.rate ?? 0))} patient-days per second`;
  return (
    <div className="flex flex-col gap-2" data-testid="comparison-job">
      <ProgressBar aria-label="Comparison progress" value={percent} className="max-w-xl">
        <ProgressBar.Track>
          <ProgressBar.Fill />
        </ProgressBar.Track>
      </ProgressBar>
      <p role="status" className="text-sm text-muted">
        {text} Large runs continue in the background: you can leave this page.
      </p>
    </div>
  );
}

/** /algorithms/patient-engagement/{product}-comparison: settings, re-run, and the side-by-side results. */
/** Keeps the running job in the address (?job=), so leaving the page and coming back follows it again. */
function rememberJobInAddress(jobId: string | null): void {
  const url = new URL(window.location.href);
  if (jobId === null) url.searchParams.delete('job');
  else url.searchParams.set('job', jobId);
  window.history.replaceState(window.history.state, '', url);
}

export function PolicyComparisonPanel({ productName, initial, runComparison, resumeJobId = null }: Props) {
  const [comparison, setComparison] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string | null>(resumeJobId);
  // Follows a background comparison until it ends; it keeps running if the page is left.
  const { job, followedMilliseconds } = useJobProgress<PolicyComparison>(jobId, {
    onEnd: (end) => {
      setJobId(null);
      rememberJobInAddress(null);
      if (end.kind === 'lost') setMessage(lostRunMessages[end.reason]);
      else if (end.job.status === 'succeeded' && end.job.result !== null) setComparison(end.job.result);
      else setMessage(end.job.error ?? 'The comparison could not be completed.');
    },
  });
  const waitingLong = job?.status === 'queued' && followedMilliseconds > unclaimedNoticeMilliseconds;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      patients: String(data.get('patients') ?? ''),
      seed: String(data.get('seed') ?? ''),
      smsPrice: String(data.get('smsPrice') ?? ''),
      whatsappPrice: String(data.get('whatsappPrice') ?? ''),
    };
    setMessage(null);
    // The same rules as the server, checked here first so a typo needs no round trip.
    const checked = comparisonSettingsSchema.safeParse(input);
    if (!checked.success) {
      setErrors(fieldErrorsOf(checked.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await runComparison(input).catch(() => null);
    setBusy(false);
    if (result === null) setMessage('We could not reach the server. Nothing was run; please try again.');
    else if (!result.ok) {
      setErrors(result.error.fieldErrors ?? {});
      setMessage(result.error.message);
    } else if (result.data.kind === 'result') setComparison(result.data.comparison);
    else {
      setJobId(result.data.jobId);
      rememberJobInAddress(result.data.jobId);
    }
  };

  const settings = comparison.settings;
  const running = busy || jobId !== null;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="comparison-settings-heading" className="flex flex-col gap-4">
        <h2 id="comparison-settings-heading" className="text-xl font-semibold">
          Settings
        </h2>
        <Form
          className="grid max-w-3xl gap-4 sm:grid-cols-2"
          validationErrors={errors}
          onSubmit={(event) => void submit(event)}
          aria-label="Comparison settings"
        >
          <TextField name="patients" defaultValue={String(settings.patients)} inputMode="numeric">
            <Label>Cohort size (patients)</Label>
            <Input />
            <Description>
              {formatCount(comparisonLimits.minimumPatients)} to {formatCount(comparisonLimits.maximumPatients)}; above{' '}
              {formatCount(comparisonLimits.maximumPatientsInRequest)} the run goes to the background.
            </Description>
            <FieldError />
          </TextField>
          <TextField name="seed" defaultValue={String(settings.seed)} inputMode="numeric">
            <Label>Seed</Label>
            <Input />
            <Description>The same seed gives the same cohort and the same figures.</Description>
            <FieldError />
          </TextField>
          <TextField name="smsPrice" defaultValue={String(settings.smsPrice)} inputMode="decimal">
            <Label>SMS price per message (£)</Label>
            <Input />
            <FieldError />
          </TextField>
          <TextField name="whatsappPrice" defaultValue={String(settings.whatsappPrice)} inputMode="decimal">
            <Label>WhatsApp price per message (£)</Label>
            <Input />
            <FieldError />
          </TextField>
          <div className="flex flex-col gap-3 sm:col-span-2">
            {message ? (
              <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
                {message}
              </p>
            ) : null}
            <div>
              <Button type="submit" variant="primary" isDisabled={running}>
                {running ? 'Running…' : 'Run comparison'}
              </Button>
            </div>
            {busy ? (
              <p role="status" className="text-sm text-muted">
                Simulating the cohort under each policy…
              </p>
            ) : null}
            {jobId !== null ? <JobProgress job={job} waitingLong={waitingLong} /> : null}
          </div>
        </Form>
      </section>

      <ComparisonResults comparison={comparison} />

      <p className="rounded-2xl border border-dashed border-separator bg-surface p-4 text-sm">
        {productName}’s personalised policy (messages chosen per patient by the learning algorithm) is not built yet. It joins this
        comparison, on the same cohort, when it lands.
      </p>
    </div>
  );
}
