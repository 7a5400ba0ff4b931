import type { ReactNode } from 'react';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import type { ComplianceJourney, PersistenceCurve } from '../server/get-compliance-journey';
import { formatDate, formatPercent, formatRatio } from './format';
import { RatioChart, SERIES_COLOURS } from './ratio-chart';

const SUMMARY_MONTHS = [0, 3, 6, 9, 12];

/** A wide table scrolls sideways; the region takes focus so keyboard users can scroll it too (WCAG 2.1.1). */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-accent">
      {children}
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A number of patients as shown after suppression ("<11", "suppressed" or the count). */
function Count({ value }: { value: ShownCount }) {
  return (
    <span data-testid="patient-count" title={value.suppressed ? (value.reason === 'small' ? 'Fewer than 11 patients' : 'Hidden so that a smaller group cannot be worked out') : undefined}>
      {value.display}
    </span>
  );
}

function persistingText(value: number | null): string {
  return value === null ? 'hidden' : formatPercent(value);
}

function CurveTable({ caption, curves }: { caption: string; curves: PersistenceCurve[] }) {
  return (
    <ScrollRegion label={caption}>
      <table className="w-full min-w-max text-left text-sm">
        <caption className="text-left font-medium">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Patients</th>
            {SUMMARY_MONTHS.map((month) => (
              <th scope="col" key={month}>
                Month {month}: persisting (at risk)
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {curves.map((curve) => (
            <tr key={curve.key} className="border-t border-separator">
              <th scope="row" className="font-normal">
                {curve.label}
              </th>
              <td>
                <Count value={curve.patients} />
              </td>
              {SUMMARY_MONTHS.map((month) => {
                const point = curve.points[month];
                return (
                  <td key={month}>
                    {point ? (
                      <>
                        {persistingText(point.persisting)} (<Count value={point.atRisk} />)
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

const monthLabels = Array.from({ length: 13 }, (_, month) => `M${month}`);

/** The cohort's journey; every group count as suppressed for the viewer's role, trajectories only when allowed. */
export function ComplianceJourneyView({ journey }: { journey: ComplianceJourney }) {
  const cohortSize = journey.cohort.patients;
  if (cohortSize.count === 0) {
    return (
      <p role="status" className="max-w-3xl rounded-xl border border-separator bg-surface p-4">
        {journey.scope === 'organisation'
          ? 'No patients of your organisations have a dispensing in the last 12 months, so there is no journey to show yet.'
          : 'No patient has a dispensing in the last 12 months, so there is no journey to show yet.'}
      </p>
    );
  }
  const hasSynthetic = journey.cohort.synthetic.count !== 0;
  const overall = journey.persistence.overall;
  const lastShown = [...overall.points].reverse().find((point) => point.persisting !== null);
  const personaCurves = journey.persistence.byPersona.filter((curve) => curve.points.some((point) => point.persisting !== null));

  return (
    <div className="flex flex-col gap-6">
      <section aria-label="Cohort" className="flex flex-col gap-2">
        <p className="text-lg">
          Cohort: <Count value={cohortSize} /> patients {journey.scope === 'organisation' ? 'of your organisations ' : ''}with a dispensing between{' '}
          {formatDate(journey.period.start)} and {formatDate(journey.period.end)}.
          {hasSynthetic ? (
            <span className="ml-2 rounded-full border border-separator px-2 py-0.5 text-sm" data-testid="synthetic-label">
              synthetic demo data
            </span>
          ) : null}
        </p>
        {hasSynthetic ? (
          <p className="text-muted">
            <Count value={journey.cohort.synthetic} /> of them are synthetic demo data from the simulator, not real patients.
          </p>
        ) : null}
        {journey.suppressed ? (
          <p className="max-w-3xl text-muted" data-testid="suppression-note">
            To protect privacy, no group of fewer than 11 patients is shown: such groups read “&lt;11”, and a group hidden so that a smaller one cannot be worked
            out by subtraction reads “suppressed”. Curves stop where fewer than 11 patients remain.
          </p>
        ) : null}
      </section>

      <Section id="monthly-pdc" title="Monthly proportion of days covered">
        <p className="max-w-3xl text-muted">
          For each 30-day month from a patient’s first fill: the quartiles of PDC across patients followed for the whole month, and the share with PDC 0.8 or
          more (adherent).
        </p>
        <RatioChart
          title="Median monthly PDC and share adherent, months 1 to 12"
          xLabels={journey.pdcByMonth.map((month) => `M${month.month}`)}
          series={[
            { label: 'Median PDC', values: journey.pdcByMonth.map((month) => month.quartiles?.median ?? null), colour: SERIES_COLOURS[0]! },
            { label: 'Share with PDC ≥ 0.8', values: journey.pdcByMonth.map((month) => month.adherentShare), colour: SERIES_COLOURS[1]!, dashed: true },
          ]}
          reference={{ value: 0.8, label: '0.8 (adherent)' }}
        />
        <ScrollRegion label="Monthly PDC distribution">
          <table className="w-full min-w-max text-left text-sm">
            <caption className="text-left font-medium">Monthly PDC distribution</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Patients</th>
                <th scope="col">Lower quartile</th>
                <th scope="col">Median</th>
                <th scope="col">Upper quartile</th>
                <th scope="col">PDC ≥ 0.8</th>
                {journey.pdcByMonth[0]?.bands.map((band) => (
                  <th scope="col" key={band.key}>
                    {band.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {journey.pdcByMonth.map((month) => (
                <tr key={month.month} className="border-t border-separator">
                  <th scope="row" className="font-normal">
                    Month {month.month}
                  </th>
                  <td>
                    <Count value={month.patients} />
                  </td>
                  <td>{month.quartiles ? formatRatio(month.quartiles.q1) : '—'}</td>
                  <td>{month.quartiles ? formatRatio(month.quartiles.median) : '—'}</td>
                  <td>{month.quartiles ? formatRatio(month.quartiles.q3) : '—'}</td>
                  <td>{month.adherentShare === null ? '—' : formatPercent(month.adherentShare)}</td>
                  {month.bands.map((band) => (
                    <td key={band.key}>
                      <Count value={band.patients} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Section>

      <Section id="persistence" title="Persistence (Kaplan–Meier)">
        <p className="max-w-3xl text-muted">
          The share of patients still on treatment, month by month from their first fill. A patient stops when more than 60 days pass without medicine; patients
          still on treatment at the end of the data count until then (censored).
          {lastShown ? ` After ${lastShown.month} months, ${formatPercent(lastShown.persisting)} of the cohort were still on treatment.` : ''}
        </p>
        <RatioChart
          title="Persistence by persona, months 0 to 12"
          xLabels={monthLabels}
          step
          series={[
            { label: 'All patients', values: overall.points.map((point) => point.persisting), colour: '#111827' },
            ...personaCurves.map((curve, index) => ({
              label: curve.label,
              values: curve.points.map((point) => point.persisting),
              colour: SERIES_COLOURS[index % SERIES_COLOURS.length]!,
              dashed: index % 2 === 0,
            })),
          ]}
        />
        <CurveTable caption="Persistence, all patients and by persona" curves={[overall, ...journey.persistence.byPersona]} />
        <CurveTable caption="Persistence by product (the medicine of the first fill)" curves={journey.persistence.byProduct} />
      </Section>

      {journey.trajectories ? (
        <Section id="trajectories" title="Individual trajectories">
          <p className="max-w-3xl text-muted">
            Monthly PDC of each patient, by pseudonym{journey.trajectories.shown.length < journey.trajectories.total ? ` (the first ${journey.trajectories.shown.length} of ${journey.trajectories.total})` : ''}. A
            dash means the month has not ended yet.
          </p>
          <ScrollRegion label="Monthly PDC per patient">
            <table className="w-full min-w-max text-left text-sm">
              <caption className="sr-only">Monthly PDC per patient</caption>
              <thead>
                <tr>
                  <th scope="col">Patient</th>
                  <th scope="col">Persona</th>
                  {journey.pdcByMonth.map((month) => (
                    <th scope="col" key={month.month}>
                      M{month.month}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {journey.trajectories.shown.map((trajectory) => (
                  <tr key={trajectory.pseudonym} className="border-t border-separator">
                    <th scope="row" className="font-normal">
                      {trajectory.pseudonym}
                      {trajectory.synthetic ? <span className="text-muted"> (synthetic demo data)</span> : null}
                    </th>
                    <td>{trajectory.persona ?? '—'}</td>
                    {trajectory.monthlyPdc.map((value, index) => (
                      <td key={index}>{value === null ? '—' : formatRatio(value)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </Section>
      ) : null}
    </div>
  );
}
