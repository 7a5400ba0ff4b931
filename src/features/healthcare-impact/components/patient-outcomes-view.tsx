import { ReportingPeriodBar } from '@/components/reporting-period-bar';
import type { ShownCount } from '@/engine/aggregation/small-cell-suppression';
import { formatCount, formatDate, formatDecimal, formatPercent } from '@/lib/format';
import { periodQueryOf } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import { countryPresets, modelledConditionLabels, modelledConditions, NOT_CAUSAL_LABEL } from '../presets';
import type { GroupDimension, OutcomeGroup, PatientOutcomes, ScenarioFigures } from '../server/get-patient-outcomes';
import { CountryForm } from './country-form';
import { TableScroll } from '@/lib/components/table-scroll';
import { ShownCountText, SuppressedCell, SuppressionNote } from '@/lib/components/suppressed-cell';
import type { ReactNode } from 'react';

const OUTCOMES_PATH = `${patientEngagementPrefix}patient-outcomes`;

const dimensionTitles: Record<GroupDimension, string> = { persona: 'By persona', condition: 'By condition', 'age-band': 'By age band' };

/** Signed, so that more events than at the baseline adherence read as such. */
const signed = (value: number) => `${value < 0 ? '−' : ''}${formatDecimal(Math.abs(value), 1)}`;
const scenarioText = (figures: ScenarioFigures | null, modelled: boolean): ReactNode =>
  figures === null ? (
    modelled ? (
      <SuppressedCell reason="derived" />
    ) : (
      'not modelled'
    )
  ) : (
    `${signed(figures.central)} (${signed(figures.low)} to ${signed(figures.high)})`
  );
const countText = (count: ShownCount): ReactNode => <ShownCountText value={count} format={formatCount} />;

export function PatientOutcomesView({
  outcomes,
  countryProblem,
  periodProblem,
}: {
  outcomes: PatientOutcomes;
  countryProblem: string | null;
  periodProblem: string | null;
}) {
  if (outcomes.status === 'no-company') {
    return <p>Your account is not a member of any drug company, so there are no patients to show.</p>;
  }
  const periodQuery = periodQueryOf(outcomes.period.choice);
  const country = countryPresets[outcomes.country];
  const periodText = `from ${formatDate(outcomes.period.start)} to ${formatDate(outcomes.period.end)}`;
  return (
    <div className="flex flex-col gap-6">
      <ReportingPeriodBar period={outcomes.period} path={OUTCOMES_PATH} keep={{ country: outcomes.country }} problem={periodProblem} />
      {countryProblem === null ? null : (
        <p role="alert" className="text-danger">
          {countryProblem.replace(/\.?$/, '.')} Showing {country.name}.
        </p>
      )}
      <CountryForm path={OUTCOMES_PATH} country={outcomes.country} periodQuery={periodQuery} />
      <p className="rounded-xl border border-warning bg-warning/10 p-3 font-medium" data-testid="not-causal">
        {NOT_CAUSAL_LABEL} The figures assume the relative risks of good vs poor adherence seen in observational studies apply to these
        patients.
      </p>
      {outcomes.status === 'too-few' ? (
        <p data-testid="too-few">Fewer than 11 patients had a dispensing {periodText}, so no figures are shown for this period.</p>
      ) : (
        <>
          <p data-testid="outcomes-population">
            Patients with a dispensing {periodText}: {countText(outcomes.cohort.patients)}
            {outcomes.cohort.synthetic ? ' (including synthetic demo data)' : ''}; share adherent (PDC ≥ 0.8 over the period, from the first
            fill when treatment began inside it): {formatPercent(outcomes.cohort.adherentShare)}.
          </p>
          {outcomes.suppressed ? <SuppressionNote /> : null}
          <p className="max-w-3xl text-sm text-muted">
            Each figure is admissions (or deaths) per 1,000 patients of the group per year expected to be avoided by the group’s observed
            adherence compared with {country.name}’s baseline adherence (
            {modelledConditions
              .map(
                (condition) =>
                  `${modelledConditionLabels[condition]} ${formatPercent(country.conditions[condition].baselineAdherence.value)}`,
              )
              .join(', ')}
            ), central estimate with the low to high scenario from the 95% CI of the relative risk (Chowdhury R et al., Eur Heart J 2013). A
            negative figure means more events than at the baseline adherence. Event rates are {country.name}’s preset figures, most of them
            transferred from cohorts elsewhere (see National Healthcare Impact for every source). Only hypertension, type 2 diabetes and
            hyperlipidaemia are modelled; a patient treated for several of them counts for each, so deaths (all causes) may overlap for
            them.
          </p>
          {(Object.keys(dimensionTitles) as GroupDimension[]).map((dimension) => (
            <OutcomeTable
              key={dimension}
              dimension={dimension}
              groups={outcomes.groups[dimension]}
              caption={`${dimensionTitles[dimension]}: patients with a dispensing ${periodText}, ${country.name} preset`}
            />
          ))}
        </>
      )}
    </div>
  );
}

function OutcomeTable({ dimension, groups, caption }: { dimension: GroupDimension; groups: OutcomeGroup[]; caption: string }) {
  return (
    <section aria-labelledby={`outcomes-${dimension}`} className="flex flex-col gap-2">
      <h2 id={`outcomes-${dimension}`} className="text-xl font-semibold">
        {dimensionTitles[dimension]}
      </h2>
      <TableScroll label={caption}>
        <table className="min-w-full text-sm" data-testid={`outcomes-${dimension}`}>
          <caption className="text-left text-muted">{caption}</caption>
          <thead>
            <tr className="border-b border-separator text-left">
              <th scope="col" className="py-2 pr-4">
                Group
              </th>
              <th scope="col" className="py-2 pr-4">
                Patients
              </th>
              <th scope="col" className="py-2 pr-4">
                Adherent (PDC ≥ 0.8)
              </th>
              <th scope="col" className="py-2 pr-4">
                Admissions avoided per 1,000 a year (low to high)
              </th>
              <th scope="col" className="py-2 pr-4">
                Deaths avoided per 1,000 a year (low to high)
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={group.key} className="border-b border-separator">
                <th scope="row" className="py-2 pr-4 text-left font-medium">
                  {group.label}
                </th>
                <td className="py-2 pr-4">{countText(group.patients)}</td>
                <td className="py-2 pr-4">
                  {group.adherentShare === null ? <SuppressedCell reason="derived" /> : formatPercent(group.adherentShare)}
                </td>
                <td className="py-2 pr-4">{scenarioText(group.hospitalisationsAvoided, group.modelled)}</td>
                <td className="py-2 pr-4">{scenarioText(group.deathsAvoided, group.modelled)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
