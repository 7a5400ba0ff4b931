import type { ReactNode } from 'react';
import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import type { ComplianceJourney, ComplianceJourneyResult, GroupMonthlyPdc, PersistenceCurve } from '../server/get-compliance-journey';
import { MonthlyLinesChart, PdcDistributionChart, PersistenceChart } from './adherence-charts';
import type { ChartSeries } from './chart-options';
import { formatCount, formatDate, formatPercent, formatRatio } from '@/lib/format';
import { periodQueryOf } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import { JourneyFilterForm } from './journey-filter-form';
import { TableScroll } from '@/lib/components/table-scroll';
import { ShownCountText, SuppressedCell, SuppressionNote } from '@/lib/components/suppressed-cell';

const JOURNEY_PATH = `${patientEngagementPrefix}compliance-journey`;

const SUMMARY_MONTHS = [0, 3, 6, 9, 12];
/** Wide tables: cells keep apart (a column of counts never runs into the next header). */
const TABLE_CLASS = 'w-full min-w-max text-left text-sm [&_td]:pr-4 [&_th]:pr-4';

function Section({
  id,
  title,
  belowFirstScreen = false,
  children,
}: {
  id: string;
  title: string;
  belowFirstScreen?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      className={`flex flex-col gap-3 rounded-xl border border-separator bg-surface p-4${belowFirstScreen ? ' render-when-near' : ''}`}
      aria-labelledby={id}
    >
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="max-w-3xl rounded-xl border border-separator bg-surface p-4">
      {children}
    </p>
  );
}

/** A number of patients as shown after suppression ("<11", "suppressed" or the count). */
function Count({ value }: { value: ShownCount }) {
  return (
    <span data-testid="patient-count">
      <ShownCountText value={value} format={formatCount} />
    </span>
  );
}

function SyntheticBadge() {
  return (
    <span className="ml-2 rounded-full border border-separator px-2 py-0.5 text-sm" data-testid="synthetic-label">
      synthetic demo data
    </span>
  );
}

/** "from 0.91 in month 1 to 0.74 in month 12", over the values shown. */
function describeRun(values: readonly (number | null)[], format: (value: number) => string, firstMonth: number): string {
  const shown = values
    .map((value, index) => ({ value, month: index + firstMonth }))
    .filter((entry): entry is { value: number; month: number } => entry.value !== null);
  const first = shown[0];
  const last = shown.at(-1);
  if (first === undefined || last === undefined) return 'nothing shown';
  if (first === last) return `${format(first.value)} in month ${first.month}`;
  return `from ${format(first.value)} in month ${first.month} to ${format(last.value)} in month ${last.month}`;
}

const hasValues = (series: ChartSeries) => series.values.some((value) => value !== null);

type GroupRow = { key: string; label: string; patients: ShownCount; cells: ReactNode[] };

/** A group × month table: one row a group with its size, one column a month (the persistence and monthly PDC tables). */
function GroupByMonthTable({ caption, monthHeadings, rows }: { caption: string; monthHeadings: string[]; rows: GroupRow[] }) {
  return (
    <TableScroll label={caption}>
      <table className={TABLE_CLASS}>
        <caption className="text-left font-medium">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Patients</th>
            {monthHeadings.map((heading) => (
              <th scope="col" key={heading}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-separator align-top">
              <th scope="row" className="font-normal">
                {row.label}
              </th>
              <td>
                <Count value={row.patients} />
              </td>
              {row.cells.map((cell, index) => (
                <td key={monthHeadings[index] ?? index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function CurveTable({ caption, curves }: { caption: string; curves: PersistenceCurve[] }) {
  return (
    <GroupByMonthTable
      caption={caption}
      monthHeadings={SUMMARY_MONTHS.map((month) => `Month ${month}: persisting (at risk)`)}
      rows={curves.map((curve) => ({
        key: curve.key,
        label: curve.label,
        patients: curve.patients,
        cells: SUMMARY_MONTHS.map((month) => {
          const point = curve.points[month];
          return point ? (
            <>
              {point.persisting === null ? <SuppressedCell reason="derived" /> : formatPercent(point.persisting)} (
              <Count value={point.atRisk} />)
            </>
          ) : (
            '—'
          );
        }),
      }))}
    />
  );
}

function CurveChart({ title, overall, curves }: { title: string; overall: PersistenceCurve | null; curves: PersistenceCurve[] }) {
  const toSeries = (curve: PersistenceCurve): ChartSeries => ({
    label: curve.label,
    values: curve.points.map((point) => point.persisting),
  });
  const overallSeries = overall ? toSeries(overall) : null;
  const groups = curves.map(toSeries).filter(hasValues);
  if ((overallSeries === null || !hasValues(overallSeries)) && groups.length === 0) return null;
  const described = [...(overallSeries && hasValues(overallSeries) ? [overallSeries] : []), ...groups]
    .map((series) => `${series.label} ${describeRun(series.values, formatPercent, 0)}`)
    .join('; ');
  return (
    <PersistenceChart
      overall={overallSeries && hasValues(overallSeries) ? overallSeries : null}
      groups={groups}
      label={`${title}: step lines of the share still on treatment by month since the first fill. ${described}. The table below lists the figures.`}
    />
  );
}

/** Monthly median PDC and share adherent per group: one row a group, one column a month. */
function GroupMonthlyTable({ caption, groups }: { caption: string; groups: GroupMonthlyPdc[] }) {
  const months = groups[0]?.months.map((month) => month.month) ?? [];
  return (
    <GroupByMonthTable
      caption={caption}
      monthHeadings={months.map((month) => `Month ${month}`)}
      rows={groups.map((group) => ({
        key: group.key,
        label: group.label,
        patients: group.patients,
        cells: group.months.map((month) => (
          <>
            <span className="block">median {month.quartiles ? formatRatio(month.quartiles.median) : '—'}</span>
            <span className="block">≥ 0.8: {month.adherentShare === null ? '—' : formatPercent(month.adherentShare)}</span>
            <span className="block text-muted">
              n = <Count value={month.patients} />
            </span>
          </>
        )),
      }))}
    />
  );
}

function GroupMonthlyCharts({ noun, groups }: { noun: string; groups: GroupMonthlyPdc[] }) {
  const months = groups[0]?.months.map((month) => month.month) ?? [];
  const medians = groups
    .map((group) => ({ label: group.label, values: group.months.map((month) => month.quartiles?.median ?? null) }))
    .filter(hasValues);
  const shares = groups
    .map((group) => ({ label: group.label, values: group.months.map((month) => month.adherentShare) }))
    .filter(hasValues);
  if (medians.length === 0 && shares.length === 0) return null;
  const describe = (series: ChartSeries[], format: (value: number) => string) =>
    series.map((entry) => `${entry.label} ${describeRun(entry.values, format, 1)}`).join('; ');
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {medians.length > 0 ? (
        <MonthlyLinesChart
          months={months}
          series={medians}
          axisName="Median PDC"
          percent={false}
          label={`Line chart of the median monthly PDC by ${noun}: ${describe(medians, formatRatio)}. The table below lists the figures.`}
        />
      ) : null}
      {shares.length > 0 ? (
        <MonthlyLinesChart
          months={months}
          series={shares}
          axisName="Share with PDC ≥ 0.8"
          percent
          label={`Line chart of the share of patients with monthly PDC 0.8 or more by ${noun}: ${describe(shares, formatPercent)}. The table below lists the figures.`}
        />
      ) : null}
    </div>
  );
}

function cohortWords(journey: ComplianceJourney): string {
  const personaLabel = journey.options.personas.find((option) => option.value === journey.filters.persona)?.label;
  const productLabel = journey.options.products.find((option) => option.value === journey.filters.product)?.label;
  const parts = [
    journey.scope === 'organisation' ? 'of your organisations' : null,
    journey.scope === 'companies' ? `dispensed products of ${journey.companies.join(' and ')}` : null,
    personaLabel ? `with the persona “${personaLabel}”` : null,
    productLabel ? `whose first fill was ${productLabel}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? ` ${parts.join(', ')}` : '';
}

function withheldNote(journey: ComplianceJourney): string | null {
  if (journey.withheld.length === 0) return null;
  const other = journey.withheld.includes('product') ? 'by product' : 'by persona';
  return `Within one ${journey.filters.persona !== null ? 'persona' : 'product'}, the PDC bands and the breakdown ${other} are not shown to your role: they would split the group further than the whole cohort’s page does, and comparing the two could reveal a group of fewer than 11 patients.`;
}

/** The cohort's journey; every group count as suppressed for the viewer's role, trajectories only when allowed. */
export function ComplianceJourneyView({
  journey,
  addressProblem = null,
  periodProblem = null,
}: {
  journey: ComplianceJourneyResult;
  addressProblem?: string | null;
  /** What was wrong with the period in the address (the default period is shown instead). */
  periodProblem?: string | null;
}) {
  if (journey.status === 'no-company') {
    return (
      <Notice>
        You are not a member of any drug company yet, so there are no products to show. An administrator can add you to your company.
      </Notice>
    );
  }
  const periodBar = (
    <ReportingPeriodBar
      period={journey.period}
      path={JOURNEY_PATH}
      keep={{ persona: journey.filters.persona, product: journey.filters.product }}
      problem={periodProblem}
    />
  );
  const form = (
    <>
      {periodBar}
      <JourneyFilterForm
        personas={journey.options.personas}
        products={journey.options.products}
        persona={journey.filters.persona}
        product={journey.filters.product}
        periodQuery={periodQueryOf(journey.period.choice)}
      />
    </>
  );
  const problem = addressProblem ?? (journey.status === 'invalid-filter' ? journey.message : null);
  if (problem !== null || journey.status === 'invalid-filter') {
    return (
      <div className="flex flex-col gap-4">
        {form}
        <p role="alert" className="max-w-3xl rounded-xl border border-danger p-4" data-testid="filter-error">
          {problem}
        </p>
      </div>
    );
  }
  if (journey.status === 'filters-not-combined') {
    return (
      <div className="flex flex-col gap-4">
        {form}
        <Notice>To protect privacy, a persona and a product are not combined for your role: choose one of them (or neither).</Notice>
      </div>
    );
  }

  const cohortSize = journey.cohort.patients;
  if (cohortSize.count === 0) {
    const filtered = journey.filters.persona !== null || journey.filters.product !== null;
    return (
      <div className="flex flex-col gap-4">
        {filtered ? form : periodBar}
        <Notice>
          {journey.scope === 'organisation'
            ? 'No patients of your organisations have a dispensing in this period, so there is no journey to show yet.'
            : journey.scope === 'companies'
              ? `No patient was dispensed a product of ${journey.companies.join(' or ')} in this period, so there is no journey to show yet.`
              : 'No patient has a dispensing in this period, so there is no journey to show yet.'}
        </Notice>
      </div>
    );
  }
  const hidden = cohortSize.reason === 'small';
  const overall = journey.persistence.overall;
  const lastShown = [...overall.points].reverse().find((point) => point.persisting !== null);
  const bandColumns = journey.pdcByMonth[0]?.bands ?? [];
  const note = withheldNote(journey);
  const showPersonaBreakdown = !journey.withheld.includes('persona') && journey.pdcByPersona.length > 0;
  const showProductBreakdown = !journey.withheld.includes('product') && journey.pdcByProduct.length > 0;

  return (
    <div className="flex flex-col gap-6">
      {form}
      <section aria-label="Cohort" className="flex flex-col gap-2">
        <p className="text-lg">
          Cohort:{' '}
          <span data-testid="journey-cohort-count">
            <Count value={cohortSize} />
          </span>{' '}
          patients{cohortWords(journey)} with a dispensing between {formatDate(journey.period.start)} and {formatDate(journey.period.end)}
          {journey.patientsInScope === null || journey.filters.persona !== null || journey.filters.product !== null
            ? ''
            : ` of ${formatCount(journey.patientsInScope)} patients in your view`}
          .{journey.cohort.hasSynthetic ? <SyntheticBadge /> : null}
        </p>
        {journey.cohort.hasSynthetic ? (
          <p className="text-muted">
            {journey.cohort.synthetic === null ? (
              'The cohort includes synthetic demo data from the simulator, not real patients.'
            ) : (
              <>
                <Count value={journey.cohort.synthetic} /> of them are synthetic demo data from the simulator, not real patients.
              </>
            )}
          </p>
        ) : null}
        {journey.suppressed ? (
          <SuppressionNote className="max-w-3xl text-muted">Curves stop where fewer than 11 patients remain.</SuppressionNote>
        ) : null}
        {note ? <p className="max-w-3xl text-muted">{note}</p> : null}
      </section>

      {hidden ? (
        <Notice>This group has fewer than 11 patients, so none of its figures are shown.</Notice>
      ) : (
        <>
          <Section id="monthly-pdc" title="Monthly proportion of days covered">
            <p className="max-w-3xl text-muted">
              For each 30-day month from a patient’s first fill: the quartiles of PDC across patients followed for the whole month (the box
              holds the middle half of patients, the line across it is the median) and the share with PDC 0.8 or more (adherent).
            </p>
            <PdcDistributionChart
              months={journey.pdcByMonth.map((month) => ({
                month: month.month,
                quartiles: month.quartiles,
                adherentShare: month.adherentShare,
              }))}
              label={`Box chart of monthly PDC, months 1 to 12: median ${describeRun(
                journey.pdcByMonth.map((month) => month.quartiles?.median ?? null),
                formatRatio,
                1,
              )}; share with PDC 0.8 or more ${describeRun(
                journey.pdcByMonth.map((month) => month.adherentShare),
                formatPercent,
                1,
              )}. The table below lists the figures.`}
            />
            <TableScroll label="Monthly PDC distribution">
              <table className={TABLE_CLASS}>
                <caption className="text-left font-medium">Monthly PDC distribution</caption>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col">Patients</th>
                    <th scope="col">Lower quartile</th>
                    <th scope="col">Median</th>
                    <th scope="col">Upper quartile</th>
                    <th scope="col">PDC ≥ 0.8</th>
                    {bandColumns.map((band) => (
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
            </TableScroll>
          </Section>

          {showPersonaBreakdown || showProductBreakdown ? (
            <Section belowFirstScreen id="monthly-pdc-by-group" title="Monthly PDC by persona and product">
              <p className="max-w-3xl text-muted">
                The median monthly PDC and the share of patients with PDC 0.8 or more, month by month, for each persona and for each product
                (the medicine of a patient’s first fill); n is the number of patients followed for the whole month.
              </p>
              {showPersonaBreakdown ? (
                <>
                  <GroupMonthlyCharts noun="persona" groups={journey.pdcByPersona} />
                  <GroupMonthlyTable caption="Monthly PDC by persona" groups={journey.pdcByPersona} />
                </>
              ) : null}
              {/* A line per product (up to 14 in the demo) would be unreadable: the products' figures are a table. */}
              {showProductBreakdown ? <GroupMonthlyTable caption="Monthly PDC by product" groups={journey.pdcByProduct} /> : null}
            </Section>
          ) : null}

          <Section belowFirstScreen id="persistence" title="Persistence (Kaplan–Meier)">
            <p className="max-w-3xl text-muted">
              The share of patients still on treatment, month by month from their first fill. A patient stops when more than 60 days pass
              without medicine; patients still on treatment at the end of the data count until then (censored).
              {lastShown && lastShown.persisting !== null
                ? ` After ${lastShown.month} months, ${formatPercent(lastShown.persisting)} of this cohort were still on treatment.`
                : ''}
            </p>
            <CurveChart
              title="Persistence, all patients and by persona"
              overall={overall}
              curves={
                journey.withheld.includes('persona') ? [] : journey.persistence.byPersona.filter((curve) => curve.key !== overall.key)
              }
            />
            <CurveTable
              caption="Persistence, all patients and by persona"
              curves={
                journey.withheld.includes('persona')
                  ? [overall]
                  : [overall, ...journey.persistence.byPersona.filter((curve) => curve !== overall)]
              }
            />
            {journey.withheld.includes('product') ? null : (
              <>
                <CurveChart title="Persistence by product" overall={null} curves={journey.persistence.byProduct} />
                <CurveTable caption="Persistence by product (the medicine of the first fill)" curves={journey.persistence.byProduct} />
              </>
            )}
          </Section>
        </>
      )}

      {journey.trajectories ? (
        <Section belowFirstScreen id="trajectories" title="Individual trajectories">
          <p className="max-w-3xl text-muted">
            Monthly PDC of each patient, by pseudonym
            {journey.trajectories.shown.length < journey.trajectories.total
              ? ` (the first ${journey.trajectories.shown.length} of ${journey.trajectories.total})`
              : ''}
            . A dash means the month has not ended yet.
          </p>
          <TableScroll label="Monthly PDC per patient">
            <table className={TABLE_CLASS}>
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
          </TableScroll>
        </Section>
      ) : null}
    </div>
  );
}
