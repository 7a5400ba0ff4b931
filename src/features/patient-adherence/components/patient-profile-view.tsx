import type { ReactNode } from 'react';
import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import { periodQueryOf, type PeriodQuery } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import type { PatientChoice, PatientProfile } from '../server/get-patient-profile';
import { CmaTrendChart } from './adherence-charts';
import { ADHERENT_THRESHOLD as ADHERENT } from './chart-options';
import { DoseCalendar } from './dose-calendar';
import { PatientPicker, type PatientPickerChoice } from './patient-picker';
import { formatDate, formatNumber, formatPercent, formatRatio } from '@/lib/format';

const PROFILE_PATH = `${patientEngagementPrefix}patient-profile`;

function Section({ title, belowFirstScreen = false, children }: { title: string; belowFirstScreen?: boolean; children: ReactNode }) {
  return (
    <section
      className={`flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4${belowFirstScreen ? ' render-when-near' : ''}`}
      aria-labelledby={sectionId(title)}
    >
      <h2 id={sectionId(title)} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const sectionId = (title: string) => `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="max-w-3xl rounded-xl border border-separator bg-surface p-4">
      {children}
    </p>
  );
}

/** The picker's choices with their addresses: the patient first, then the period kept (so the bench finds them in the HTML). */
function pickerChoices(choices: PatientChoice[], periodQuery: PeriodQuery): PatientPickerChoice[] {
  const kept = Object.entries(periodQuery).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return choices.map((choice) => ({
    ...choice,
    href: `${PROFILE_PATH}?${new URLSearchParams([['patient', choice.id], ...kept]).toString()}`,
  }));
}

/** One patient's adherence, every figure explained in words; or a plain sentence when there is nothing to show. */
export function PatientProfileView({ profile, periodProblem = null }: { profile: PatientProfile; periodProblem?: string | null }) {
  switch (profile.status) {
    case 'no-linked-record':
      return (
        <Notice>
          There is no record linked to your account yet, so there is nothing to show here. Your care team can link your patient record to
          it.
        </Notice>
      );
    case 'no-organisation':
      return (
        <Notice>
          You are not a member of any organisation yet, so there are no patients to show. An administrator can add you to one.
        </Notice>
      );
    case 'no-patients':
      return <Notice>Your organisations have no patients yet.</Notice>;
    case 'no-company':
      return (
        <Notice>
          You are not a member of any drug company yet, so there is no example patient on your products to show. An administrator can add
          you to your company.
        </Notice>
      );
    case 'no-example':
      return <Notice>There is no example patient yet: the synthetic demo data has not been loaded.</Notice>;
    case 'not-permitted':
      return (
        <div className="flex flex-col gap-4">
          <PatientPicker choices={pickerChoices(profile.choices, {})} selected={null} />
          <Notice>That patient is not one of your organisations’ patients. Choose one from the list.</Notice>
        </div>
      );
    case 'ok':
      break;
  }

  const { patient, pdc, period } = profile;
  const calendarCounts = { taken: 0, missed: 0, skipped: 0, none: 0 };
  for (const day of profile.calendar) calendarCounts[day.status] += 1;
  const dose = profile.doseAdherence;
  const compared = profile.dosesAndRefills;
  return (
    <div className="flex flex-col gap-6">
      <ReportingPeriodBar
        period={period}
        path={PROFILE_PATH}
        keep={{ patient: profile.access === 'organisation' ? patient.id : null }}
        problem={periodProblem}
      />
      {profile.access === 'organisation' ? (
        <PatientPicker choices={pickerChoices(profile.choices, periodQueryOf(period.choice))} selected={patient.id} />
      ) : null}
      <section aria-label="Patient" className="flex flex-col gap-1">
        <p className="text-lg">
          <span className="font-semibold">{patient.pseudonym}</span>
          {profile.access === 'example' ? ' — a de-identified example patient' : profile.access === 'self' ? ' — your own record' : ''}
          {patient.synthetic ? (
            <span className="ml-2 rounded-full border border-separator px-2 py-0.5 text-sm" data-testid="synthetic-label">
              synthetic demo data
            </span>
          ) : null}
        </p>
        <p className="text-muted">
          {patient.persona ? `Persona: ${patient.persona}. ` : ''}
          {patient.conditions.length > 0 ? `Conditions: ${patient.conditions.join(', ')}. ` : ''}
          Period: {formatDate(period.start)} to {formatDate(period.end)} ({period.days} days, data up to {formatDate(period.asOf)}).
        </p>
      </section>

      <Section title="Regimen">
        {profile.regimens.length === 0 ? (
          <p>No regimen is recorded for this patient.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {profile.regimens.map((regimen, index) => (
              <li key={index}>
                <span className="font-medium">{regimen.medication}</span>
                {regimen.genericName ? ` (${regimen.genericName})` : ''}: {regimen.dosesPerDay} dose{regimen.dosesPerDay === 1 ? '' : 's'} a
                day
                {regimen.doseTimes.length > 0 ? ` at ${regimen.doseTimes.join(', ')}` : ''}, since {formatDate(regimen.startDate)}
                {regimen.endDate ? `, until ${formatDate(regimen.endDate)}` : ''}.{describeIntendedSupply(regimen)}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Proportion of days covered">
        {pdc === null ? (
          <p>No dispensings are recorded, so the proportion of days covered cannot be computed.</p>
        ) : (
          <>
            <p className="text-2xl font-semibold" data-testid="pdc-summary">
              PDC {formatRatio(pdc.value)}: {pdc.coveredDays} of {pdc.periodDays} days covered
            </p>
            <p className="max-w-3xl text-muted">
              From {formatDate(pdc.start)} to {formatDate(pdc.end)}, the medicine dispensed (early refills carried forward) covered{' '}
              {pdc.coveredDays} of {pdc.periodDays} days. A PDC of {ADHERENT} or more counts as adherent; this patient is{' '}
              {pdc.value >= ADHERENT ? 'adherent' : 'below that threshold'}.
            </p>
          </>
        )}
      </Section>

      <Section title="Dose confirmations and refills">
        <dl className="grid gap-3 sm:grid-cols-2">
          <div className="rounded-xl border border-separator p-3">
            <dt className="text-muted">Doses confirmed (what was reported)</dt>
            <dd className="text-xl font-semibold">
              {compared.confirmedShare === null
                ? 'none reported'
                : `${compared.confirmedDoses} of ${compared.reportedDoses} (${formatPercent(compared.confirmedShare)})`}
            </dd>
          </div>
          <div className="rounded-xl border border-separator p-3">
            <dt className="text-muted">Refill PDC (what was dispensed)</dt>
            <dd className="text-xl font-semibold">{compared.refillPdc === null ? 'no refills' : formatPercent(compared.refillPdc)}</dd>
          </div>
        </dl>
        <p className="max-w-3xl" data-testid="doses-and-refills">
          {compared.sentence}
        </p>
      </Section>

      <Section title="Dose calendar">
        {dose.scheduledDoses === 0 ? (
          <p>No dose confirmations were recorded in this period.</p>
        ) : (
          <p className="max-w-3xl">
            {dose.confirmedDoses} of {dose.scheduledDoses} recorded doses were taken ({formatPercent(dose.confirmedShare)}),{' '}
            {dose.onTimeDoses} of them within an hour of the scheduled time ({formatPercent(dose.onTimeShare)}).
          </p>
        )}
        <p className="text-sm text-muted" data-testid="calendar-counts">
          {calendarCounts.taken} {calendarCounts.taken === 1 ? 'day' : 'days'} with every dose taken, {calendarCounts.skipped} with a dose
          skipped, {calendarCounts.missed} with a dose missed and {calendarCounts.none} without a recorded dose. Arrow keys move between
          days and weeks, Page Up and Page Down between months; each day is read out with its doses.
        </p>
        <DoseCalendar days={profile.calendar} label={`Doses from ${formatDate(period.start)} to ${formatDate(period.end)}`} />
      </Section>

      <Section belowFirstScreen title="Adherence over time (CMA7 and CMA9)">
        {profile.cmaWindows.length === 0 ? (
          <p>Not enough dispensing history for 90-day windows yet.</p>
        ) : (
          <>
            <p className="max-w-3xl text-muted">
              Continuous medication availability in 90-day windows, one every 30 days. CMA7 counts supply carried in from earlier fills;
              CMA9 spreads each fill’s supply over the time to the next fill. 1.00 means the medicine was available every day.
            </p>
            <CmaTrendChart
              windows={profile.cmaWindows.map((window) => ({
                label: formatDate(window.start, { short: true }),
                cma7: window.cma7,
                cma9: window.cma9,
              }))}
              label={`Line chart of CMA7 and CMA9 in ${profile.cmaWindows.length} windows of 90 days, from ${formatDate(profile.cmaWindows[0]!.start, { short: true })} to ${formatDate(profile.cmaWindows.at(-1)!.end, { short: true })}, with a dashed line at ${ADHERENT} (adherent). The table below lists every window.`}
            />
            <table className="w-full max-w-2xl text-left text-sm">
              <caption className="text-left font-medium">CMA per 90-day window</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">CMA7</th>
                  <th scope="col">CMA9</th>
                </tr>
              </thead>
              <tbody>
                {profile.cmaWindows.map((window) => (
                  <tr key={window.start} className="border-t border-separator">
                    <th scope="row" className="font-normal">
                      {formatDate(window.start, { short: true })} – {formatDate(window.end, { short: true })}
                    </th>
                    <td>{formatRatio(window.cma7)}</td>
                    <td>{formatRatio(window.cma9)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Section>

      <Section belowFirstScreen title="Refill gaps and treatment episodes">
        {profile.refillGaps.length === 0 ? (
          <p>No refill gaps in this period: every refill came before the previous supply ran out.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {profile.refillGaps.map((gap) => (
              <li key={`${gap.medication}-${gap.from}`}>
                {gap.medication}: {gap.days} day{gap.days === 1 ? '' : 's'} without medicine, {formatDate(gap.from)} to {formatDate(gap.to)}
                .
              </li>
            ))}
          </ul>
        )}
        <p className="max-w-3xl text-muted">
          A treatment episode ends when more than 60 days pass without medicine;{' '}
          {profile.episodes.length === 0
            ? 'there are no episodes without dispensings.'
            : `there ${profile.episodes.length === 1 ? 'is 1 episode' : `are ${profile.episodes.length} episodes`}.`}
        </p>
        {profile.episodes.length > 0 ? (
          <ol className="flex flex-col gap-1">
            {profile.episodes.map((episode) => (
              <li key={episode.episode}>
                Episode {episode.episode}: {formatDate(episode.start)} to{' '}
                {episode.ongoing ? `${formatDate(episode.end)} (ongoing when the data ends)` : formatDate(episode.end)}, {episode.days} days
                {episode.ongoing ? '' : ', then stopped for more than 60 days'}.
              </li>
            ))}
          </ol>
        ) : null}
      </Section>

      <Section belowFirstScreen title="Messages">
        {profile.messages.length === 0 ? (
          <p>No messages were sent or received in this period.</p>
        ) : (
          <>
            <p>
              By status:{' '}
              {profile.messageStatusCounts.map((entry, index) => `${index > 0 ? ', ' : ''}${entry.count} ${entry.status}`).join('')}. The
              latest {profile.messages.length}:
            </p>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Latest messages</caption>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Direction</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Category</th>
                  <th scope="col">Text as sent</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {profile.messages.map((message, index) => (
                  <tr key={index} className="border-t border-separator">
                    <td>{formatDate(message.sentAt.slice(0, 10))}</td>
                    <td>{message.direction}</td>
                    <td>{message.channel}</td>
                    <td>{message.category ?? '—'}</td>
                    <td className="max-w-md whitespace-pre-line">{message.body ?? <span className="text-muted">no text recorded</span>}</td>
                    <td>{message.history.length > 0 ? message.history.map((step) => step.status).join(' → ') : message.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Section>
    </div>
  );
}

/** " Prescribed per fill: 30 days' supply (30 units), 2 refills allowed." — only the parts the prescription states. */
export function describeIntendedSupply(regimen: {
  daysPerFill: number | null;
  quantityPerFill: number | null;
  repeatsAllowed: number | null;
}): string {
  const perFill: string[] = [];
  if (regimen.daysPerFill !== null) perFill.push(`${formatNumber(regimen.daysPerFill)} days' supply`);
  if (regimen.quantityPerFill !== null)
    perFill.push(
      perFill.length > 0 ? `(${formatNumber(regimen.quantityPerFill)} units)` : `${formatNumber(regimen.quantityPerFill)} units`,
    );
  const parts: string[] = [];
  if (perFill.length > 0) parts.push(`per fill ${perFill.join(' ')}`);
  if (regimen.repeatsAllowed !== null)
    parts.push(regimen.repeatsAllowed === 1 ? '1 refill allowed' : `${regimen.repeatsAllowed} refills allowed`);
  return parts.length === 0 ? '' : ` Prescribed: ${parts.join(', ')}.`;
}
