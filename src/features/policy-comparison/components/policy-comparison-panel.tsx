'use client';

import { Button, Description, FieldError, Form, Input, Label, ProgressBar, TextField } from '@heroui/react';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { type FormEvent, useState, useTransition } from 'react';
import { formatCount, formatMoney } from '@/lib/format';
import { useJobProgress } from '@/lib/hooks/use-job-progress';
import { isJobFinished, type JobDto } from '@/lib/jobs-dto';
import { submitChecked } from '@/lib/components/submit-checked';
import type { ActionResult } from '@/lib/server/action-result';
import {
  type ComparisonOutcome,
  comparisonLimits,
  type ComparisonRun,
  comparisonRunParameter,
  type ComparisonSettings,
  comparisonSettingsSchema,
  type PolicyComparison,
} from '../schemas';
import { ComparisonResults } from './comparison-results';

type Props = {
  productName: string;
  /** What the results show when no run is in the address: the address's settings, else the default cohort. */
  comparison: PolicyComparison;
  /** The form's starting values (the shown run's settings, else the address's). */
  formSettings: ComparisonSettings;
  /** Settings in the address that are not valid, by field. */
  settingsErrors?: Record<string, string>;
  /** The address asks for a cohort too large to compute while the page renders. */
  notComputed?: boolean;
  /** The stored run named by the address (?run=), read on the server for this viewer. */
  run: ComparisonRun | null;
  /** Why the address's run cannot be shown (malformed id, or none this viewer may see). */
  runProblem: string | null;
  /** Without a run in the address: the viewer's most recent run, if any. */
  latestRun: ComparisonRun | null;
  runComparison: (input: unknown) => Promise<ActionResult<ComparisonOutcome>>;
};

/** A queued job nobody has started after this long is worth a word: the server may have no worker for it. */
const unclaimedNoticeMilliseconds = 15_000;

/** Why the page stopped following a run it could not read any more. */
const lostRunMessages = {
  'not-found': 'That background run is not yours or no longer exists.',
  'signed-out': 'Your session has ended. Sign in again to follow the run.',
} as const;

// Times in UTC, said so: the same text on the server and in the browser, whatever their time zones.
const instantFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const formatInstant = (iso: string) => `${instantFormat.format(new Date(iso))} UTC`;

const percentOf = (run: ComparisonRun) =>
  run.progressTotal ? Math.min(100, Math.round((run.progressDone / run.progressTotal) * 100)) : run.status === 'succeeded' ? 100 : 0;

/** The server's view of the run, brought up to date by the job as last polled. */
function withJob(run: ComparisonRun, job: JobDto<PolicyComparison> | null): ComparisonRun {
  if (job === null || job.id !== run.id) return run;
  return {
    ...run,
    status: job.status,
    progressDone: job.progressDone,
    progressTotal: job.progressTotal,
    rate: job.rate,
    comparison: job.status === 'succeeded' ? job.result : null,
    error: job.error,
    finishedAt: job.finishedAt,
  };
}

function describeSettings(settings: ComparisonSettings | null): string {
  if (settings === null) return 'settings that could not be read';
  return `${formatCount(settings.patients)} patients, seed ${settings.seed}, SMS ${formatMoney(settings.smsPrice)} and WhatsApp ${formatMoney(settings.whatsappPrice)} per message`;
}

function describeStatus(run: ComparisonRun): string {
  if (run.status === 'queued') return 'queued, waiting to start';
  if (run.status === 'running') return `running, ${percentOf(run)}% simulated`;
  if (run.status === 'succeeded') return `finished${run.finishedAt ? ` ${formatInstant(run.finishedAt)}` : ''}`;
  return 'failed';
}

/** What the polite live region says: coarse steps (quarters), so a screen reader is not read every second's change. */
function announcementOf(run: ComparisonRun | null, comparison: PolicyComparison): string {
  if (run === null) return `Showing ${formatCount(comparison.patients)} simulated patients, seed ${comparison.settings.seed}.`;
  if (run.status === 'queued') return 'Background run queued.';
  if (run.status === 'running') return `Background run ${Math.floor(percentOf(run) / 25) * 25}% simulated.`;
  if (run.status === 'succeeded') return 'Background run finished: its results are below.';
  return `Background run failed: ${run.error ?? 'no reason was recorded.'}`;
}

function RunProgress({ run, waitingLong }: { run: ComparisonRun; waitingLong: boolean }) {
  const percent = percentOf(run);
  const text =
    run.status === 'queued'
      ? waitingLong
        ? 'Still waiting for the server to start the run. It starts as soon as a background worker is free.'
        : 'Queued: waiting to start…'
      : `${percent}% simulated · ${formatCount(Math.round(run.rate ?? 0))} patient-days per second`;
  return (
    <div className="flex flex-col gap-2" data-testid="comparison-job">
      <ProgressBar aria-label="Comparison progress" value={percent} className="max-w-xl">
        <ProgressBar.Track>
          <ProgressBar.Fill />
        </ProgressBar.Track>
      </ProgressBar>
      <p className="text-sm text-muted">
        {text} The run continues on the server: you can leave this page and come back to this address, or bookmark it.
      </p>
    </div>
  );
}

/** The run named by the address: what it is, where it stands, and its address to keep. */
function RunSummary({ run, href, waitingLong }: { run: ComparisonRun; href: string; waitingLong: boolean }) {
  return (
    <section
      aria-labelledby="comparison-run-heading"
      className="flex flex-col gap-3 rounded-2xl border border-separator bg-surface p-4"
      data-testid="comparison-run"
    >
      <h2 id="comparison-run-heading" className="text-xl font-semibold">
        Background run
      </h2>
      <p className="text-sm">
        {describeSettings(run.settings)}; started {formatInstant(run.createdAt)};{' '}
        <span data-testid="comparison-run-status">{describeStatus(run)}</span>.
      </p>
      {run.status === 'queued' || run.status === 'running' ? <RunProgress run={run} waitingLong={waitingLong} /> : null}
      {run.status === 'failed' ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          The run failed: {run.error ?? 'no reason was recorded.'} Change the settings if needed and run it again.
        </p>
      ) : null}
      {run.status === 'succeeded' && run.comparison === null ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          The run finished but its stored result could not be read. Run the comparison again.
        </p>
      ) : null}
      <p className="text-sm">
        <Link href={href} className="underline underline-offset-2" data-testid="comparison-run-link">
          Address of this run
        </Link>{' '}
        <span className="text-muted">
          (bookmark it to come back to the {run.status === 'succeeded' ? 'result' : 'run'}; only you can open it).
        </span>
      </p>
    </section>
  );
}

/** Without a run in the address: the viewer's latest run, one link away, or a word that there is none. */
function LatestRun({ run, href }: { run: ComparisonRun | null; href: string | null }) {
  return (
    <p className="text-sm" data-testid="comparison-latest-run">
      {run === null || href === null ? (
        <>
          You have not started a background run yet. Cohorts above {formatCount(comparisonLimits.maximumPatientsInRequest)} patients run in
          the background, each at an address of its own.
        </>
      ) : (
        <>
          Your most recent background run ({describeSettings(run.settings)}; started {formatInstant(run.createdAt)}) is{' '}
          {describeStatus(run)}.{' '}
          <Link href={href} className="underline underline-offset-2">
            Open your most recent run
          </Link>
        </>
      )}
    </p>
  );
}

/**
 * /algorithms/patient-engagement/{product}-comparison: settings, runs and the side-by-side results. The
 * address is the state: a small run's settings (?patients=…&seed=…) or a background run's id (?run=…), so
 * leaving, reloading or bookmarking the page shows the same run; the server reads the stored run each time.
 */
export function PolicyComparisonPanel({
  productName,
  comparison,
  formSettings,
  settingsErrors = {},
  notComputed = false,
  run,
  runProblem,
  latestRun,
  runComparison,
}: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [navigating, startNavigation] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>(settingsErrors);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const following = run !== null && !isJobFinished(run.status) ? run.id : null;
  // Follows an unfinished run until it ends; the run keeps going on the server if the page is left.
  const { job, followedMilliseconds } = useJobProgress<PolicyComparison>(following, {
    onEnd: (end) => {
      if (end.kind === 'lost') setMessage(lostRunMessages[end.reason]);
    },
  });
  const current = run === null ? null : withJob(run, job);
  // The form shows the settings of the run in the address: another run opened (a link, back, forward) starts it
  // afresh with that run's settings; a run started from this form keeps it as typed, with its focus.
  const runKey = run?.id ?? 'none';
  const [formFor, setFormFor] = useState({ runKey, generation: 0 });
  const [startedHere, setStartedHere] = useState<string | null>(null);
  if (formFor.runKey !== runKey) setFormFor({ runKey, generation: formFor.generation + (runKey === startedHere ? 0 : 1) });
  const waitingLong = current?.status === 'queued' && followedMilliseconds > unclaimedNoticeMilliseconds;
  const runHref = (id: string) => `${pathname}?${new URLSearchParams({ [comparisonRunParameter]: id }).toString()}`;

  const go = (href: string) => startNavigation(() => router.push(href, { scroll: false }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      patients: String(data.get('patients') ?? ''),
      seed: String(data.get('seed') ?? ''),
      smsPrice: String(data.get('smsPrice') ?? ''),
      whatsappPrice: String(data.get('whatsappPrice') ?? ''),
    };
    const submitted = await submitChecked({
      schema: comparisonSettingsSchema,
      input,
      send: runComparison,
      unreachableMessage: 'We could not reach the server. Nothing was run; please try again.',
      setErrors,
      setMessage,
      setBusy,
    });
    if (submitted === null) return;
    const { checked, data: result } = submitted;
    // Either way the address changes, so the result (computed now, or the background run) can be left and found again.
    if (result.kind === 'job') {
      setStartedHere(result.jobId);
      go(runHref(result.jobId));
    } else {
      setStartedHere('none');
      const settings = Object.fromEntries(Object.entries(checked).map(([key, value]) => [key, String(value)]));
      go(`${pathname}?${new URLSearchParams(settings).toString()}`);
    }
  };

  const running = busy || navigating || following !== null;
  const shownComparison = current === null ? comparison : current.comparison;
  return (
    <div className="flex flex-col gap-8">
      <p role="status" className="sr-only" data-testid="comparison-announcement">
        {running && current === null ? 'Simulating the cohort under each policy…' : announcementOf(current, comparison)}
      </p>
      {runProblem !== null ? (
        <div
          role="alert"
          className="flex flex-col gap-1 rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground"
          data-testid="comparison-run-problem"
        >
          <p>{runProblem}</p>
          <p>
            <Link href={pathname} className="underline underline-offset-2">
              Open the comparison without a run
            </Link>
          </p>
        </div>
      ) : null}
      {current !== null ? (
        <RunSummary run={current} href={runHref(current.id)} waitingLong={waitingLong} />
      ) : runProblem === null ? (
        <LatestRun run={latestRun} href={latestRun === null ? null : runHref(latestRun.id)} />
      ) : null}

      <section aria-labelledby="comparison-settings-heading" className="flex flex-col gap-4">
        <h2 id="comparison-settings-heading" className="text-xl font-semibold">
          Settings
        </h2>
        <Form
          key={formFor.generation}
          className="grid max-w-3xl gap-4 sm:grid-cols-2"
          validationErrors={errors}
          onSubmit={(event) => void submit(event)}
          aria-label="Comparison settings"
        >
          <TextField name="patients" defaultValue={String(formSettings.patients)} inputMode="numeric">
            <Label>Cohort size (patients)</Label>
            <Input />
            <Description>
              {formatCount(comparisonLimits.minimumPatients)} to {formatCount(comparisonLimits.maximumPatients)}; above{' '}
              {formatCount(comparisonLimits.maximumPatientsInRequest)} the run goes to the background.
            </Description>
            <FieldError />
          </TextField>
          <TextField name="seed" defaultValue={String(formSettings.seed)} inputMode="numeric">
            <Label>Seed</Label>
            <Input />
            <Description>The same seed gives the same cohort and the same figures.</Description>
            <FieldError />
          </TextField>
          <TextField name="smsPrice" defaultValue={String(formSettings.smsPrice)} inputMode="decimal">
            <Label>SMS price per message (£)</Label>
            <Input />
            <FieldError />
          </TextField>
          <TextField name="whatsappPrice" defaultValue={String(formSettings.whatsappPrice)} inputMode="decimal">
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
            {notComputed && current === null ? (
              <p className="text-sm" data-testid="comparison-not-computed">
                A cohort above {formatCount(comparisonLimits.maximumPatientsInRequest)} patients is not computed on opening the page: run it
                to start it in the background. The results below are the default cohort’s.
              </p>
            ) : null}
            <div>
              <Button type="submit" variant="primary" isDisabled={running}>
                {running ? 'Running…' : 'Run comparison'}
              </Button>
            </div>
            {busy || (navigating && current === null) ? (
              <p className="text-sm text-muted" aria-hidden="true">
                Simulating the cohort under each policy…
              </p>
            ) : null}
          </div>
        </Form>
      </section>

      {shownComparison !== null ? <ComparisonResults comparison={shownComparison} /> : null}

      <p className="rounded-2xl border border-dashed border-separator bg-surface p-4 text-sm">
        {productName}’s personalised policy chooses for each patient and day whether to send a message and which kind, by Thompson sampling
        over what it has learned. In this comparison it starts from its prior, knowing nothing about the cohort, and learns day by day from
        what the product can observe (confirmed doses, replies, opt-outs), never from the simulator’s hidden truth.
      </p>
    </div>
  );
}
