import { buttonVariants } from '@heroui/react';
import Link from 'next/link';
import { formatDate } from '@/lib/format';
import { FormSelect } from './form-select';
import { hrefWithPeriod, periodQueryOf, type PeriodView } from '@/lib/period-query';
import { patientEngagementPrefix, routes } from '@/lib/routes';

/** The pages that report over the shared period, in the order the bar links them. */
const PERIOD_PAGES = [
  { label: 'Home', href: routes.home },
  { label: 'Data sources', href: `${patientEngagementPrefix}data-sources` },
  { label: 'Compliance journey', href: `${patientEngagementPrefix}compliance-journey` },
  { label: 'Patient profile', href: `${patientEngagementPrefix}patient-profile` },
  { label: 'Messaging overview', href: `${patientEngagementPrefix}messaging-overview` },
  { label: 'Message data collection', href: `${patientEngagementPrefix}message-data-collection` },
  { label: 'WhatsApp analysis', href: `${patientEngagementPrefix}whatsapp-analysis` },
  { label: 'Patient outcomes', href: `${patientEngagementPrefix}patient-outcomes` },
] as const;

/** "1 Jan 2025 – 31 Dec 2025, data up to 31 Dec 2025": the words every page states its period in. */
export function describePeriod(period: Pick<PeriodView, 'start' | 'end' | 'asOf'>): string {
  const short = { short: true };
  return `${formatDate(period.start, short)} – ${formatDate(period.end, short)}, data up to ${formatDate(period.asOf, short)}`;
}

function choiceValue(period: PeriodView): string {
  return periodQueryOf(period.choice).period ?? 'last-12-months';
}

/**
 * The period a page reports and the choice of another one (last 3/6/12 months, a calendar year, from–to),
 * sent as the address's search parameters so the same choice shows the same dates on every page; the links
 * carry it to the other pages. A plain GET form: it works before (and without) JavaScript.
 */
export function ReportingPeriodBar({
  period,
  path,
  keep = {},
  problem = null,
}: {
  period: PeriodView;
  /** This page's path, where the form sends the choice. */
  path: string;
  /** Other parameters of this page's address to keep (e.g. the journey's filters, the chosen patient). */
  keep?: Record<string, string | null>;
  /** What was wrong with the period in the address, if anything (the default is shown instead). */
  problem?: string | null;
}) {
  const asOfYear = Number(period.asOf.slice(0, 4));
  const years = Array.from({ length: 5 }, (_, index) => asOfYear - index);
  const selected = choiceValue(period);
  const custom = period.choice.kind === 'custom';
  return (
    <section aria-label="Reporting period" className="flex flex-col gap-2 rounded-2xl border border-separator bg-surface p-4">
      <p>
        <span className="font-medium">Period: </span>
        <span data-testid="reporting-period">{describePeriod(period)}</span>
        <span className="text-muted"> ({period.days} days)</span>
      </p>
      {problem === null ? null : (
        <p role="alert" className="text-danger">
          {problem}
        </p>
      )}
      {period.notice === null ? null : (
        <p role="status" className="text-sm text-muted">
          {period.notice}
        </p>
      )}
      <form method="get" action={path} className="flex flex-wrap items-end gap-3">
        {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
        <FormSelect
          name="period"
          label="Reporting period"
          defaultValue={selected}
          className="w-52"
          options={[
            ['last-3-months', 'Last 3 months'],
            ['last-6-months', 'Last 6 months'],
            ['last-12-months', 'Last 12 months'],
            ...years.map((year) => [`year-${year}`, `Calendar year ${year}`] as const),
            ['custom', 'From – to (below)'],
          ]}
        />
        <label className="flex flex-col gap-1 text-sm">
          From
          <input
            type="date"
            name="from"
            defaultValue={custom ? period.start : undefined}
            className="rounded-lg border border-separator bg-background px-2 py-1"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          To
          <input
            type="date"
            name="to"
            defaultValue={custom ? period.end : undefined}
            max={period.asOf}
            className="rounded-lg border border-separator bg-background px-2 py-1"
          />
        </label>
        <button type="submit" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
          Apply period
        </button>
      </form>
      <nav aria-label="The same period on other pages" className="text-sm">
        The same period on:{' '}
        {PERIOD_PAGES.filter((page) => page.href !== path).map((page, index) => (
          <span key={page.href}>
            {index > 0 ? ' · ' : null}
            <Link href={hrefWithPeriod(page.href, period.choice)}>{page.label}</Link>
          </span>
        ))}
      </nav>
    </section>
  );
}
