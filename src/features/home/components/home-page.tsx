import { buttonVariants } from '@heroui/react';
import Link from 'next/link';
import { routes } from '@/lib/routes';
import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import { SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';
import { formatCount, formatDate, formatPercent } from '@/lib/format';
import type { HeadlineFigures } from '../server/get-headline-figures';

const audiences = [
  {
    title: 'Patients',
    text: 'See your own journey: which doses you confirmed, when a refill is due, and messages that fit your day instead of a fixed alarm. Reply STOP at any time and the messages end.',
  },
  {
    title: 'Care teams',
    text: 'Know which of your patients are drifting before it shows up as a missed appointment or an admission, and why: forgotten doses, doubts about the medicine, cost or a changed routine.',
  },
  {
    title: 'Drug manufacturers',
    text: 'Understand how your products are actually taken once they leave the pharmacy: coverage, persistence and refill gaps per product, from pseudonymous data in groups large enough to protect every patient.',
  },
  {
    title: 'Government and payers',
    text: 'Follow the national picture: how adherence changes hospitalisations, deaths and costs, by condition and region, with every assumption sourced and open to change.',
  },
];

const steps = [
  {
    title: 'Observe',
    text: 'Dose confirmations from the app, WhatsApp replies and smart pill bottles; pharmacy refills; prescriptions and dispensings from the health record (FHIR). Adherence is measured with the methods the field trusts: proportion of days covered (PDC) and the CMA family of measures.',
  },
  {
    title: 'Understand',
    text: 'Short micro-surveys, one or two questions at a time, learn what kind of support each person needs: a busy professional, a forgetful older adult, someone sceptical about their medicine or held back by cost. Each question is chosen for what it adds, so nobody answers more than needed.',
  },
  {
    title: 'Decide',
    text: 'For every patient and moment, a learning algorithm (contextual Thompson sampling) chooses what to send — a reminder, an explanation, encouragement, a practical tip — how to frame it, and when; or decides to send nothing. It keeps exploring within safe bounds and counts every message as a burden, so people are not flooded.',
  },
  {
    title: 'Learn',
    text: 'Replies, confirmed doses and refills flow back as the outcome of each decision. The algorithm updates what it believes works for people like this patient, and every decision is logged so any other policy can be evaluated on the same records.',
  },
  {
    title: 'Prove',
    text: 'A 12-week randomised trial compares personalised messages with standard care on the same measures, with confidence intervals and the full flow of participants, so the effect is shown rather than claimed.',
  },
];

function scopeWords(scope: NonNullable<HeadlineFigures>['scope']): string {
  if (scope === 'organisation') return 'of your organisations';
  if (scope === 'companies') return 'dispensed your companies’ products';
  return 'on record';
}

function LiveFigures({ figures, periodProblem }: { figures: NonNullable<HeadlineFigures>; periodProblem: string | null }) {
  const { period } = figures;
  return (
    <section aria-labelledby="figures-heading" className="flex flex-col gap-3" data-testid="headline-figures">
      <h2 id="figures-heading" className="text-2xl font-semibold tracking-tight">
        Right now{figures.synthetic ? ' (synthetic demo data)' : ''}
      </h2>
      <ReportingPeriodBar period={period} path={routes.home} problem={periodProblem} />
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-2xl border border-separator bg-surface p-6">
          <dt className="text-muted">Patients monitored</dt>
          <dd className="text-3xl font-semibold" data-testid="patients-monitored">
            {formatCount(figures.patientsMonitored)}
          </dd>
        </div>
        <div className="rounded-2xl border border-separator bg-surface p-6">
          <dt className="text-muted">Mean proportion of days covered</dt>
          <dd className="text-3xl font-semibold">{formatPercent(figures.meanPdc)}</dd>
        </div>
        <div className="rounded-2xl border border-separator bg-surface p-6">
          <dt className="text-muted">Trial effect</dt>
          <dd className="text-base">Shown when the 12-week trial reports its primary endpoint.</dd>
        </div>
      </dl>
      <p className="text-sm text-muted" data-testid="cohort-counts">
        {formatCount(figures.patientsMonitored)} with a dispensing in the period
        {figures.patientsInCohort === null ? '' : ` of ${formatCount(figures.patientsInCohort)} patients ${scopeWords(figures.scope)}`}.
        Refill-based, over the {period.days} days from {formatDate(period.start)} to {formatDate(period.end)} (from a patient’s first fill
        when treatment began within them) — the same period and patients as the compliance journey and data sources pages for the same
        choice.
      </p>
    </section>
  );
}

export function HomePage({
  productName,
  figures,
  periodProblem = null,
}: {
  productName: string;
  figures: HeadlineFigures;
  periodProblem?: string | null;
}) {
  return (
    <div className="flex flex-col gap-16">
      <section aria-labelledby="home-heading" className="flex flex-col gap-6 pt-6">
        <p className="text-sm font-medium uppercase tracking-wide text-accent">Medication adherence</p>
        <h1 id="home-heading" className="max-w-3xl text-4xl font-semibold tracking-tight sm:text-5xl">
          {productName} helps people take the medicines that keep them well — and shows whether it works.
        </h1>
        <p className="max-w-2xl text-lg text-muted">
          About half of the medicines prescribed for long-term conditions are not taken as prescribed (World Health Organization, 2003).{' '}
          {productName} watches for the signs — missed confirmations, late refills — and reaches each patient on WhatsApp or SMS with a
          message chosen for them by an algorithm that learns from every reply.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link href={routes.login} className={buttonVariants({ variant: 'primary' })}>
            Sign in
          </Link>
          <Link href={routes.trial} className={buttonVariants({ variant: 'secondary' })}>
            See the 12-week trial
          </Link>
        </div>
      </section>

      <section aria-labelledby="audiences-heading" className="flex flex-col gap-6">
        <h2 id="audiences-heading" className="text-2xl font-semibold tracking-tight">
          Who it is for
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {audiences.map((audience) => (
            <li key={audience.title} className="rounded-2xl border border-separator bg-surface p-6">
              <h3 className="text-lg font-medium">{audience.title}</h3>
              <p className="mt-2 text-muted">{audience.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="how-heading" className="flex flex-col gap-6">
        <h2 id="how-heading" className="text-2xl font-semibold tracking-tight">
          How the personalisation works
        </h2>
        <ol className="flex flex-col gap-4">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 rounded-2xl border border-separator bg-surface p-6">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="text-lg font-medium">{step.title}</h3>
                <p className="mt-1 text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="privacy-heading" className="flex flex-col gap-3">
        <h2 id="privacy-heading" className="text-2xl font-semibold tracking-tight">
          Built for health data
        </h2>
        <p className="max-w-3xl text-muted">
          Patients consent per channel and purpose and can stop messages with one word. Reports for manufacturers and officials never show a
          group of fewer than {SMALL_CELL_THRESHOLD} patients. Nothing that identifies a patient is written to logs, and the whole platform
          runs on your own infrastructure, with no third-party trackers.
        </p>
        {figures === null ? (
          <p className="max-w-3xl text-muted">
            Live figures — patients monitored, mean adherence and the trial effect — appear here once records of at least{' '}
            {SMALL_CELL_THRESHOLD} patients are connected; none are shown until they are computed from those records.
          </p>
        ) : null}
      </section>
      {figures === null ? null : <LiveFigures figures={figures} periodProblem={periodProblem} />}
    </div>
  );
}
