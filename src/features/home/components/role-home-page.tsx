import { buttonVariants } from '@heroui/react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import { SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';
import { type Role, roleNames, roles } from '@/lib/domain/roles';
import { formatCount, formatDate, formatDateTime, formatPercent } from '@/lib/format';
import { patientEngagementPrefix, routes } from '@/lib/routes';
import { ADMIN_HOME_WINDOW_DAYS, type AdminHome } from '../server/get-admin-home';
import { type CareTeamHome, LAPSE_WINDOW_DAYS } from '../server/get-care-team-home';
import type { HeadlineFigures } from '../server/get-headline-figures';
import { TableScroll } from '@/lib/components/table-scroll';

const pageHref = (segment: string) => `${patientEngagementPrefix}${segment}`;

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="flex flex-col gap-3 rounded-2xl border border-separator bg-surface p-6" data-testid={testId}>
      <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
      {children}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-xl border border-separator p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-3xl font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function scopeWords(figures: NonNullable<HeadlineFigures>): string {
  if (figures.scope === 'organisation') return 'of your organisations';
  if (figures.scope === 'companies') return `dispensed ${figures.companyNames.join(', ')} products`;
  return 'on record, every organisation and company';
}

/** The cohort's headline figures with their period and population, or why there are none. */
function CohortFigures({ figures, periodProblem, heading }: { figures: HeadlineFigures; periodProblem: string | null; heading: string }) {
  if (figures === null) {
    return (
      <Card title={heading} testId="cohort-figures">
        <p className="text-muted">
          No figures yet: they appear once dispensings of at least {SMALL_CELL_THRESHOLD} patients in your view are on record (fewer are not
          shown, to protect them).
        </p>
      </Card>
    );
  }
  const { period } = figures;
  return (
    <Card title={`${heading}${figures.synthetic ? ' (synthetic demo data)' : ''}`} testId="cohort-figures">
      <ReportingPeriodBar period={period} path={routes.home} problem={periodProblem} />
      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure label="Patients monitored" value={formatCount(figures.patientsMonitored)} testId="patients-monitored" />
        <Figure label="Share at PDC ≥ 0.8" value={formatPercent(figures.shareAdherent)} testId="share-adherent" />
        <Figure label="Mean proportion of days covered" value={formatPercent(figures.meanPdc)} />
      </dl>
      <p className="text-sm text-muted" data-testid="cohort-counts">
        {formatCount(figures.patientsMonitored)} with a dispensing in the period
        {figures.patientsInCohort === null ? '' : ` of ${formatCount(figures.patientsInCohort)} patients ${scopeWords(figures)}`}.
        Refill-based proportion of days covered over the {period.days} days from {formatDate(period.start)} to {formatDate(period.end)},
        from a patient’s first fill when treatment began within them — the same period and patients as the compliance journey for the same
        choice.
      </p>
    </Card>
  );
}

function Welcome({ name, role, children }: { name: string; role: Role; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-2 pt-4">
      <p className="text-sm font-medium uppercase tracking-wide text-accent">{roleNames[role]}</p>
      <h1 id="home-heading" className="text-3xl font-semibold tracking-tight sm:text-4xl">
        Welcome, {name}
      </h1>
      {children}
    </header>
  );
}

function Links({ links }: { links: { href: string; label: string; primary?: boolean }[] }) {
  return (
    <nav aria-label="Where to go next" className="flex flex-wrap gap-3">
      {links.map((link) => (
        <Link key={link.href} href={link.href} className={buttonVariants({ variant: link.primary ? 'primary' : 'secondary' })}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

export function ClinicianHomePage({
  name,
  figures,
  careTeam,
  periodProblem,
}: {
  name: string;
  figures: HeadlineFigures;
  careTeam: CareTeamHome;
  periodProblem: string | null;
}) {
  return (
    <div className="flex flex-col gap-8" data-testid="clinician-home">
      <Welcome name={name} role="clinician">
        <p className="text-muted">Your organisation at a glance, from the dispensings and dose answers on record.</p>
      </Welcome>
      {careTeam.hasOrganisation ? (
        <>
          <CohortFigures figures={figures} periodProblem={periodProblem} heading="Your organisation" />
          <Card title="Lapsed this week" testId="lapsed-this-week">
            <p className="text-sm text-muted">
              Patients whose supply of a medicine ran out between {formatDate(careTeam.lapseWindowStart)} and{' '}
              {formatDate(careTeam.period.end)} (the last {LAPSE_WINDOW_DAYS} days of the period) and who had not refilled it by then.
            </p>
            {careTeam.lapsed.length === 0 ? (
              <p>Nobody lapsed in these {LAPSE_WINDOW_DAYS} days.</p>
            ) : (
              <TableScroll label="Lapsed patients">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">
                    Patients who lapsed in the last {LAPSE_WINDOW_DAYS} days of the period, earliest first
                  </caption>
                  <thead>
                    <tr className="border-b border-separator">
                      <th scope="col" className="py-2 pr-4">
                        Patient
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        Ran out of
                      </th>
                      <th scope="col" className="py-2">
                        Without supply since
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {careTeam.lapsed.map((patient) => (
                      <tr key={patient.patientId} className="border-b border-separator">
                        <td className="py-2 pr-4">
                          <Link
                            className="text-accent underline underline-offset-2"
                            href={`${pageHref('patient-profile')}?patient=${encodeURIComponent(patient.patientId)}`}
                          >
                            {patient.pseudonym}
                          </Link>
                        </td>
                        <td className="py-2 pr-4">{patient.medicines.join(', ')}</td>
                        <td className="py-2">{formatDate(patient.since)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Card>
        </>
      ) : (
        <Card title="Your organisation">
          <p role="status">
            You are not a member of an organisation yet, so there are no patients to show. An administrator adds you to one.
          </p>
        </Card>
      )}
      <Links
        links={[
          { href: routes.riskWorklist, label: 'Risk worklist', primary: true },
          { href: pageHref('compliance-journey'), label: 'Compliance journey' },
          { href: pageHref('patient-profile'), label: 'Patient profiles' },
          { href: pageHref('data-sources'), label: 'Data sources' },
        ]}
      />
    </div>
  );
}

export function ManufacturerHomePage({
  name,
  figures,
  periodProblem,
}: {
  name: string;
  figures: HeadlineFigures;
  periodProblem: string | null;
}) {
  return (
    <div className="flex flex-col gap-8" data-testid="manufacturer-home">
      <Welcome name={name} role="drug-manufacturer">
        <p className="text-muted">
          {figures !== null && figures.companyNames.length > 0
            ? `Showing ${figures.companyNames.join(', ')}. `
            : 'Showing your companies. '}
          <Link href={routes.drugCompanySelector} className="text-accent underline underline-offset-2">
            Choose companies
          </Link>
        </p>
      </Welcome>
      <CohortFigures figures={figures} periodProblem={periodProblem} heading="Your products" />
      <Links links={[{ href: routes.manufacturingPortal, label: 'Open the portal', primary: true }]} />
    </div>
  );
}

export function GovernmentHomePage({
  name,
  figures,
  periodProblem,
}: {
  name: string;
  figures: HeadlineFigures;
  periodProblem: string | null;
}) {
  return (
    <div className="flex flex-col gap-8" data-testid="government-home">
      <Welcome name={name} role="government-official">
        <p className="text-muted">
          National figures across every organisation and company, with groups under {SMALL_CELL_THRESHOLD} hidden.
        </p>
      </Welcome>
      <CohortFigures figures={figures} periodProblem={periodProblem} heading="National picture" />
      <Links
        links={[
          { href: pageHref('national-healthcare-impact'), label: 'National healthcare impact', primary: true },
          { href: routes.manufacturingPortal, label: 'Open the portal' },
          { href: pageHref('patient-outcomes'), label: 'Patient outcomes' },
        ]}
      />
    </div>
  );
}

export function AdminHomePage({
  name,
  pending,
  figures,
  periodProblem,
}: {
  name: string;
  pending: AdminHome;
  figures: HeadlineFigures;
  periodProblem: string | null;
}) {
  return (
    <div className="flex flex-col gap-8" data-testid="admin-home">
      <Welcome name={name} role="admin">
        <p className="text-muted">What waits for you, counted now; failed jobs and new accounts since {formatDateTime(pending.since)}.</p>
      </Welcome>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Imports" testId="pending-imports">
          <dl className="grid grid-cols-2 gap-4">
            <Figure label="Waiting" value={formatCount(pending.importsWaiting)} testId="imports-waiting" />
            <Figure label="Running" value={formatCount(pending.importsRunning)} testId="imports-running" />
          </dl>
          <Link href={pageHref('data-sources')} className="text-accent underline underline-offset-2">
            Data sources and imports
          </Link>
        </Card>
        <Card title="Accounts" testId="accounts">
          <p>
            <span data-testid="new-users">{formatCount(pending.newUsers)}</span> new in the last {ADMIN_HOME_WINDOW_DAYS} days; a new
            account is a patient until you give it a role.
          </p>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            {roles.map((role) => (
              <div key={role} className="flex justify-between gap-2 border-b border-separator py-1">
                <dt>{roleNames[role]}</dt>
                <dd>{formatCount(pending.usersByRole[role])}</dd>
              </div>
            ))}
          </dl>
          <Link href={routes.administration} className="text-accent underline underline-offset-2">
            Administration: roles and companies
          </Link>
        </Card>
      </div>
      <CohortFigures figures={figures} periodProblem={periodProblem} heading="Every patient on record" />
      <Card title="Failed background jobs" testId="failed-jobs">
        {pending.failedJobCount === 0 ? (
          <p>No job failed in the last {ADMIN_HOME_WINDOW_DAYS} days.</p>
        ) : (
          <>
            <p>
              {formatCount(pending.failedJobCount)} failed after their retries in the last {ADMIN_HOME_WINDOW_DAYS} days
              {pending.failedJobCount > pending.failedJobs.length ? `; the latest ${pending.failedJobs.length}:` : ':'}
            </p>
            <ul className="flex flex-col gap-2 text-sm">
              {pending.failedJobs.map((job) => (
                <li key={job.id} className="rounded-lg border border-separator p-3">
                  <span className="font-medium">{job.kind}</span> —{' '}
                  {job.finishedAt === null ? 'time unknown' : formatDateTime(job.finishedAt)}, {job.attempts}{' '}
                  {job.attempts === 1 ? 'attempt' : 'attempts'}
                  {job.error === null ? null : <div className="text-muted">{job.error}</div>}
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  );
}
