'use client';

import { Label, Slider } from '@heroui/react';
import { useMemo, useState } from 'react';
import {
  type AdherenceImprovement,
  conditionImpact,
  type ConditionImpact,
  type ConditionInputs,
  type Scenario,
  scenarios,
  totalImpact,
} from '@/engine/impact';
import { formatCount, formatDate, formatDecimal, formatMoney } from '@/lib/format';
import {
  conditionInputsOf,
  type CountryId,
  countryPresets,
  type CountryPreset,
  type ModelledCondition,
  modelledConditionLabels,
  modelledConditions,
  NOT_CAUSAL_LABEL,
  type Source,
} from '../presets';
import { CountrySelect } from './country-select';
import type { MeasuredImprovement } from '../server/get-measured-improvement';
import { ScenarioBarChart } from './impact-chart';
import { TableScroll } from '@/lib/components/table-scroll';

const scenarioLabels: Record<Scenario, string> = { low: 'Low', central: 'Central', high: 'High' };
/** The improvement slider's range, in percentage points of the treated. */
const MAX_IMPROVEMENT_POINTS = 50;

type Parameters = { population: number; conditions: Record<ModelledCondition, ConditionInputs> };

function parametersOf(country: CountryPreset): Parameters {
  return {
    population: country.population.value,
    conditions: Object.fromEntries(modelledConditions.map((condition) => [condition, conditionInputsOf(country, condition)])) as Record<
      ModelledCondition,
      ConditionInputs
    >,
  };
}

const money = (currency: CountryPreset['currency'], value: number) => formatMoney(value, currency);

const percentOf = (share: number) => `${formatDecimal(share * 100, 1)}%`;
const perThousand = (rate: number) => `${formatDecimal(rate * 1000, 1)} per 1,000 a year`;

function SourceNote({ source }: { source: Source }) {
  return (
    <p className="text-xs text-muted">
      {source.approximate ? <strong className="font-medium">Approximate planning assumption. </strong> : <span>Source: </span>}
      {source.text}
    </p>
  );
}

function ParameterSlider(props: {
  label: string;
  value: number;
  minValue: number;
  maxValue: number;
  step: number;
  format: (value: number) => string;
  onChange: (value: number) => void;
  source: Source;
}) {
  return (
    <div className="flex flex-col gap-1">
      <Slider
        value={props.value}
        onChange={(value) => props.onChange(Array.isArray(value) ? (value[0] ?? props.minValue) : value)}
        minValue={props.minValue}
        maxValue={props.maxValue}
        step={props.step}
        className="w-full max-w-md"
      >
        <Label>{props.label}</Label>
        <Slider.Output>{({ state }) => props.format(state.values[0] ?? props.minValue)}</Slider.Output>
        <Slider.Track>
          <Slider.Fill />
          <Slider.Thumb />
        </Slider.Track>
      </Slider>
      <SourceNote source={props.source} />
    </div>
  );
}

/** A step that moves a preset value in about a hundredth of it, rounded to a readable size. */
function stepFor(value: number): number {
  if (value <= 0) return 1;
  return 10 ** Math.floor(Math.log10(value / 100));
}

export function NationalImpactView({ measured }: { measured: MeasuredImprovement | null }) {
  const [countryId, setCountryId] = useState<CountryId>('united-kingdom');
  const country = countryPresets[countryId];
  const [parameters, setParameters] = useState<Parameters>(() => parametersOf(country));
  // On the slider's half-point steps, within its range.
  const measuredPoints =
    measured === null ? 0 : Math.min(MAX_IMPROVEMENT_POINTS, Math.max(0, Math.round(measured.points.estimate * 2) / 2));
  const [points, setPoints] = useState(measuredPoints);

  const chooseCountry = (id: CountryId) => {
    setCountryId(id);
    setParameters(parametersOf(countryPresets[id]));
  };
  const setCondition = (condition: ModelledCondition, change: Partial<ConditionInputs>) =>
    setParameters((current) => ({
      ...current,
      conditions: { ...current.conditions, [condition]: { ...current.conditions[condition], ...change } },
    }));

  const impacts = useMemo(() => {
    const improvement: AdherenceImprovement = { kind: 'percentage-points', points };
    return modelledConditions.map((condition) => ({
      condition,
      impact: conditionImpact({ ...parameters.conditions[condition], population: parameters.population }, improvement),
    }));
  }, [parameters, points]);
  const total = useMemo(() => totalImpact(impacts.map((entry) => entry.impact)), [impacts]);
  const hospitalisationBars = useMemo(
    () => [
      ...impacts.map(({ condition, impact }) => ({ label: modelledConditionLabels[condition], ...pick(impact, 'hospitalisations') })),
      { label: 'Total', low: total.low.hospitalisations, central: total.central.hospitalisations, high: total.high.hospitalisations },
    ],
    [impacts, total],
  );
  const deathBars = useMemo(
    () => [
      ...impacts.map(({ condition, impact }) => ({ label: modelledConditionLabels[condition], ...pick(impact, 'deaths') })),
      { label: 'Total', low: total.low.deaths, central: total.central.deaths, high: total.high.deaths },
    ],
    [impacts, total],
  );

  return (
    <div className="flex flex-col gap-6">
      <p className="rounded-xl border border-warning bg-warning/10 p-3 font-medium" data-testid="not-causal">
        {NOT_CAUSAL_LABEL} Relative risks compare patients with good and poor adherence in observational studies; people who adhere differ
        in other ways too, so the true effect of raising adherence may be smaller.
      </p>

      <section aria-labelledby="improvement-heading" className="flex flex-col gap-3">
        <h2 id="improvement-heading" className="text-xl font-semibold">
          Adherence improvement
        </h2>
        {measured === null ? (
          <p data-testid="improvement-source">
            No trial of the platform is complete yet, so there is no measured effect to start from: set the improvement below (it starts at
            0).
          </p>
        ) : (
          <p data-testid="improvement-source">
            Starts at the platform’s measured effect: the primary result of the trial “{measured.trialName}”
            {measured.synthetic ? ' (synthetic demo data)' : ''} — the share of participants adherent, intervention − control,{' '}
            {formatDecimal(measured.points.estimate, 1)} percentage points (95% CI {formatDecimal(measured.points.ciLow, 1)} to{' '}
            {formatDecimal(measured.points.ciHigh, 1)}); {formatCount(measured.participants.intervention)} intervention and{' '}
            {formatCount(measured.participants.control)} control participants; {measured.population}; follow-up{' '}
            {formatDate(measured.period.from)} to {formatDate(measured.period.to)}.
            {measured.points.estimate < 0 ? ' The measured difference is negative, so the slider starts at 0.' : ''}
            {measured.points.estimate > MAX_IMPROVEMENT_POINTS ? ` The slider stops at ${MAX_IMPROVEMENT_POINTS} points.` : ''} The slider
            moves in half points, so it starts at the nearest half point; you can set it instead.
          </p>
        )}
        <ParameterSlider
          label="Adherence improvement (percentage points of treated patients moving from poor to good adherence)"
          value={points}
          minValue={0}
          maxValue={MAX_IMPROVEMENT_POINTS}
          step={0.5}
          format={(value) => `${formatDecimal(value, 1)} points`}
          onChange={setPoints}
          source={{
            text:
              measured === null
                ? 'Set by you.'
                : `Trial “${measured.trialName}”, primary binary endpoint (risk difference in the share adherent); capped at the poorly adherent.`,
            approximate: false,
          }}
        />
      </section>

      <section aria-labelledby="country-heading" className="flex flex-col gap-4">
        <h2 id="country-heading" className="text-xl font-semibold">
          Country and parameters
        </h2>
        <CountrySelect
          label="Country preset"
          selectedKey={countryId}
          onSelectionChange={(key) => chooseCountry(key as CountryId)}
          data-testid="country-select"
        />
        <ParameterSlider
          label="Adult population (millions)"
          value={parameters.population / 1e6}
          minValue={0}
          maxValue={Math.max(1, Math.ceil((country.population.value / 1e6) * 2))}
          step={0.1}
          format={(value) => `${formatDecimal(value, 1)} million`}
          onChange={(value) => setParameters((current) => ({ ...current, population: value * 1e6 }))}
          source={country.population.source}
        />
        <div className="grid gap-6 lg:grid-cols-3">
          {modelledConditions.map((condition) => {
            const preset = country.conditions[condition];
            const values = parameters.conditions[condition];
            const name = modelledConditionLabels[condition];
            const cost = preset.costPerAdmission.value;
            return (
              <fieldset key={condition} className="flex flex-col gap-3 rounded-2xl border border-separator p-4">
                <legend className="px-1 text-lg font-semibold">{name}</legend>
                <ParameterSlider
                  label={`${name}: prevalence among adults`}
                  value={values.prevalence}
                  minValue={0}
                  maxValue={1}
                  step={0.001}
                  format={percentOf}
                  onChange={(value) => setCondition(condition, { prevalence: value })}
                  source={preset.prevalence.source}
                />
                <ParameterSlider
                  label={`${name}: share treated`}
                  value={values.shareTreated}
                  minValue={0}
                  maxValue={1}
                  step={0.01}
                  format={percentOf}
                  onChange={(value) => setCondition(condition, { shareTreated: value })}
                  source={preset.shareTreated.source}
                />
                <ParameterSlider
                  label={`${name}: baseline adherence (share of the treated adherent)`}
                  value={values.baselineAdherence}
                  minValue={0}
                  maxValue={1}
                  step={0.01}
                  format={percentOf}
                  onChange={(value) => setCondition(condition, { baselineAdherence: value })}
                  source={preset.baselineAdherence.source}
                />
                <ParameterSlider
                  label={`${name}: hospital admissions among the treated`}
                  value={values.hospitalisationRate}
                  minValue={0}
                  maxValue={0.2}
                  step={0.001}
                  format={perThousand}
                  onChange={(value) => setCondition(condition, { hospitalisationRate: value })}
                  source={preset.hospitalisationRate.source}
                />
                <ParameterSlider
                  label={`${name}: deaths among the treated`}
                  value={values.mortalityRate}
                  minValue={0}
                  maxValue={0.1}
                  step={0.001}
                  format={perThousand}
                  onChange={(value) => setCondition(condition, { mortalityRate: value })}
                  source={preset.mortalityRate.source}
                />
                <ParameterSlider
                  label={`${name}: cost per admission`}
                  value={values.costPerAdmission}
                  minValue={0}
                  maxValue={cost * 4}
                  step={stepFor(cost)}
                  format={(value) => money(country.currency, value)}
                  onChange={(value) => setCondition(condition, { costPerAdmission: value })}
                  source={preset.costPerAdmission.source}
                />
                <ParameterSlider
                  label={`${name}: relative risk of admission, good vs poor adherence`}
                  value={values.hospitalisationRelativeRisk.estimate}
                  minValue={preset.hospitalisationRelativeRisk.value.ciLow}
                  maxValue={preset.hospitalisationRelativeRisk.value.ciHigh}
                  step={0.01}
                  format={(value) =>
                    `${formatDecimal(value, 2)} (95% CI ${formatDecimal(values.hospitalisationRelativeRisk.ciLow, 2)}–${formatDecimal(values.hospitalisationRelativeRisk.ciHigh, 2)})`
                  }
                  onChange={(value) =>
                    setCondition(condition, { hospitalisationRelativeRisk: { ...values.hospitalisationRelativeRisk, estimate: value } })
                  }
                  source={preset.hospitalisationRelativeRisk.source}
                />
                <ParameterSlider
                  label={`${name}: relative risk of death, good vs poor adherence`}
                  value={values.mortalityRelativeRisk.estimate}
                  minValue={preset.mortalityRelativeRisk.value.ciLow}
                  maxValue={preset.mortalityRelativeRisk.value.ciHigh}
                  step={0.01}
                  format={(value) =>
                    `${formatDecimal(value, 2)} (95% CI ${formatDecimal(values.mortalityRelativeRisk.ciLow, 2)}–${formatDecimal(values.mortalityRelativeRisk.ciHigh, 2)})`
                  }
                  onChange={(value) =>
                    setCondition(condition, { mortalityRelativeRisk: { ...values.mortalityRelativeRisk, estimate: value } })
                  }
                  source={preset.mortalityRelativeRisk.source}
                />
              </fieldset>
            );
          })}
        </div>
        <p className="text-sm text-muted">
          The demo dataset’s atrial fibrillation and COPD patients are not modelled: no relative risk for adherence in those conditions is
          sourced here.
        </p>
      </section>

      <section aria-labelledby="results-heading" className="flex flex-col gap-4">
        <h2 id="results-heading" className="text-xl font-semibold">
          Avoided per year — {country.name}
        </h2>
        <p className="max-w-3xl text-muted">
          Per year, among the {formatDecimal(parameters.population / 1e6, 1)} million adults of the model, with {formatDecimal(points, 1)}{' '}
          percentage points of treated patients moving from poor to good adherence. Low, central and high use the upper 95% limit, the
          estimate and the lower 95% limit of each relative risk. {NOT_CAUSAL_LABEL}
        </p>
        <ImpactTable country={country} impacts={impacts} total={total} />
        <ScenarioBarChart
          bars={hospitalisationBars}
          axisName="Admissions avoided a year"
          label={`Hospital admissions avoided per year in ${country.name} by condition, low, central and high scenarios (the table above gives the figures)`}
        />
        <ScenarioBarChart
          bars={deathBars}
          axisName="Deaths avoided a year"
          label={`Deaths avoided per year in ${country.name} by condition, low, central and high scenarios (the table above gives the figures)`}
        />
      </section>
    </div>
  );
}

function pick(impact: ConditionImpact, key: 'hospitalisations' | 'deaths') {
  return { low: impact.avoided.low[key], central: impact.avoided.central[key], high: impact.avoided.high[key] };
}

function ImpactTable({
  country,
  impacts,
  total,
}: {
  country: CountryPreset;
  impacts: { condition: ModelledCondition; impact: ConditionImpact }[];
  total: ReturnType<typeof totalImpact>;
}) {
  const rows = [
    ...impacts.map(({ condition, impact }) => ({
      label: modelledConditionLabels[condition],
      moved: impact.moved,
      avoided: impact.avoided,
    })),
    { label: 'Total', moved: impacts.reduce((sum, entry) => sum + entry.impact.moved, 0), avoided: total },
  ];
  return (
    <TableScroll label="Impact table">
      <table className="min-w-full text-sm" data-testid="impact-table">
        <caption className="text-left text-muted">
          Hospital admissions, deaths and admission costs avoided per year in {country.name}, by condition (low / central / high).
        </caption>
        <thead>
          <tr className="border-b border-separator text-left">
            <th scope="col" className="py-2 pr-4">
              Condition
            </th>
            <th scope="col" className="py-2 pr-4">
              Patients moved to good adherence
            </th>
            {(['Admissions avoided', 'Deaths avoided', 'Admission costs avoided'] as const).map((heading) => (
              <th key={heading} scope="col" className="py-2 pr-4">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-b border-separator" data-testid={`impact-row-${row.label}`}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {row.label}
              </th>
              <td className="py-2 pr-4">{formatCount(row.moved)}</td>
              <td className="py-2 pr-4">{scenarioText(row.avoided, (outcome) => formatCount(outcome.hospitalisations))}</td>
              <td className="py-2 pr-4">{scenarioText(row.avoided, (outcome) => formatCount(outcome.deaths))}</td>
              <td className="py-2 pr-4">{scenarioText(row.avoided, (outcome) => money(country.currency, outcome.costs))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function scenarioText<Outcome>(avoided: Record<Scenario, Outcome>, format: (outcome: Outcome) => string): string {
  return scenarios.map((scenario) => `${scenarioLabels[scenario]} ${format(avoided[scenario])}`).join(' · ');
}
