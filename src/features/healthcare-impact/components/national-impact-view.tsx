'use client';

import { Button, Label, Radio, RadioGroup, Slider } from '@heroui/react';
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
import { formatCount, formatDate, formatDecimal, formatMoney, formatPercent } from '@/lib/format';
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
import type { ImprovementSource } from '../improvement-source';
import type { PlatformAdherence } from '../schemas';
import type { ComparisonImprovement, MeasuredImprovements, TrialImprovement } from '../server/get-measured-improvement';
import { CountrySelect } from './country-select';
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
      {/* Most approximate figures are cited ones taken from another country, year or population (decision 036). */}
      {source.approximate ? (
        <strong className="font-medium">Approximate (transferred, converted or assumed, as it says). Source: </strong>
      ) : (
        <span>Source: </span>
      )}
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

/** A measured effect on the slider's half-point steps, within its range. */
function sliderPointsOf(estimate: number): number {
  return Math.min(MAX_IMPROVEMENT_POINTS, Math.max(0, Math.round(estimate * 2) / 2));
}

function startingPoints(measured: MeasuredImprovements, source: ImprovementSource): number | null {
  if (source === 'trial') return measured.trial === null ? null : sliderPointsOf(measured.trial.points.estimate);
  if (source === 'comparison') return measured.comparison === null ? null : sliderPointsOf(measured.comparison.points);
  return null;
}

/** The baseline slider moves in whole percent; the platform's share is put on it rounded so. */
const baselineOf = (share: number) => Math.round(share * 100) / 100;

/** Period and population of the platform's measured adherence, in the words every mention of it uses. */
export function platformAdherenceText(adherence: PlatformAdherence): string {
  const patients = adherence.patients === null ? '' : ` of ${formatCount(adherence.patients)} patients`;
  return (
    `measured on the platform: ${formatPercent(adherence.share)}${patients} at PDC ≥ 0.8, ` +
    `${formatDate(adherence.period.from, { short: true })} – ${formatDate(adherence.period.to, { short: true })} ` +
    `(data up to ${formatDate(adherence.period.dataTo, { short: true })}), ${adherence.population}`
  );
}

export function NationalImpactView({
  measured,
  platformAdherence = null,
  platformAdherenceProblem = null,
}: {
  measured: MeasuredImprovements;
  /** The share at PDC ≥ 0.8 the manufacturing portal linked in, if any. */
  platformAdherence?: PlatformAdherence | null;
  /** Why a linked figure was ignored. */
  platformAdherenceProblem?: string | null;
}) {
  const [countryId, setCountryId] = useState<CountryId>('united-kingdom');
  const country = countryPresets[countryId];
  const [parameters, setParameters] = useState<Parameters>(() => parametersOf(country));
  const [source, setSource] = useState<ImprovementSource>(measured.initial);
  const [points, setPoints] = useState(() => startingPoints(measured, measured.initial) ?? 0);
  // The conditions whose baseline adherence is the platform's figure (until moved, or the country changes).
  const [platformBaseline, setPlatformBaseline] = useState<ReadonlySet<ModelledCondition>>(() => new Set());

  const chooseCountry = (id: CountryId) => {
    setCountryId(id);
    setParameters(parametersOf(countryPresets[id]));
    setPlatformBaseline(new Set());
  };
  const setCondition = (condition: ModelledCondition, change: Partial<ConditionInputs>) =>
    setParameters((current) => ({
      ...current,
      conditions: { ...current.conditions, [condition]: { ...current.conditions[condition], ...change } },
    }));
  const setBaseline = (condition: ModelledCondition, value: number) => {
    setCondition(condition, { baselineAdherence: value });
    setPlatformBaseline((current) => new Set([...current].filter((entry) => entry !== condition)));
  };
  const applyPlatformAdherence = (adherence: PlatformAdherence) => {
    const baselineAdherence = baselineOf(adherence.share);
    setParameters((current) => ({
      ...current,
      conditions: Object.fromEntries(
        modelledConditions.map((condition) => [condition, { ...current.conditions[condition], baselineAdherence }]),
      ) as Record<ModelledCondition, ConditionInputs>,
    }));
    setPlatformBaseline(new Set(modelledConditions));
  };
  const chooseSource = (next: ImprovementSource) => {
    setSource(next);
    const start = startingPoints(measured, next);
    if (start !== null) setPoints(start);
  };
  const movePoints = (value: number) => {
    setPoints(value);
    // Moved off the source's value, the improvement is the user's own.
    if (value !== startingPoints(measured, source)) setSource('own');
  };

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
  // A baseline taken from the platform says so, with its period and population, instead of the preset's source.
  const baselineSource = (condition: ModelledCondition): Source => {
    const preset = country.conditions[condition].baselineAdherence;
    if (platformAdherence === null || !platformBaseline.has(condition)) return preset.source;
    return {
      text: `The platform’s adherence, ${platformAdherenceText(platformAdherence)} — all the platform’s conditions together, rounded to whole percent (the ${country.name} preset: ${formatPercent(preset.value)}).`,
      approximate: false,
    };
  };

  return (
    <div className="flex flex-col gap-6">
      <p className="rounded-xl border border-warning bg-warning/10 p-3 font-medium" data-testid="not-causal">
        {NOT_CAUSAL_LABEL} Relative risks compare patients with good and poor adherence in observational studies; people who adhere differ
        in other ways too, so the true effect of raising adherence may be smaller.
      </p>

      {platformAdherenceProblem === null ? null : (
        <p role="alert" className="text-danger" data-testid="platform-adherence-problem">
          {platformAdherenceProblem}
        </p>
      )}
      {platformAdherence === null ? null : (
        <section aria-labelledby="platform-adherence-heading" className="flex flex-col gap-2 rounded-2xl border border-separator p-4">
          <h2 id="platform-adherence-heading" className="text-xl font-semibold">
            Adherence measured on the platform
          </h2>
          <p data-testid="platform-adherence">
            From the manufacturing portal’s link: {platformAdherenceText(platformAdherence)}. Refill-based: the proportion of days covered,
            as the model’s relative risks define good adherence (PDC or MPR ≥ 0.8). It is the platform’s patients on the products shown, all
            their conditions together — not the country’s treated population, and not one condition alone.
          </p>
          <div>
            <Button variant="secondary" onPress={() => applyPlatformAdherence(platformAdherence)} data-testid="use-platform-adherence">
              Use the platform’s measured adherence as the baseline of every condition
            </Button>
          </div>
          {platformBaseline.size === 0 ? null : (
            <p role="status" className="text-sm text-muted">
              Baseline adherence set to {formatPercent(baselineOf(platformAdherence.share))} for{' '}
              {modelledConditions
                .filter((condition) => platformBaseline.has(condition))
                .map((condition) => modelledConditionLabels[condition].toLowerCase())
                .join(', ')}
              . Choose the country again to go back to its presets.
            </p>
          )}
        </section>
      )}

      <section aria-labelledby="improvement-heading" className="flex flex-col gap-3">
        <h2 id="improvement-heading" className="text-xl font-semibold">
          Adherence improvement
        </h2>
        {measured.trial === null && measured.comparison === null ? null : (
          <RadioGroup
            value={source}
            onChange={(value) => chooseSource(value as ImprovementSource)}
            className="flex flex-col gap-1"
            data-testid="improvement-choice"
          >
            <Label>Start the improvement from</Label>
            {measured.trial === null ? null : (
              <Radio value="trial">
                <Radio.Control>
                  <Radio.Indicator />
                </Radio.Control>
                <Radio.Content>
                  <Label>The trial “{measured.trial.trialName}” (measured)</Label>
                </Radio.Content>
              </Radio>
            )}
            {measured.comparison === null ? null : (
              <Radio value="comparison">
                <Radio.Control>
                  <Radio.Indicator />
                </Radio.Control>
                <Radio.Content>
                  <Label>The policy comparison (simulated)</Label>
                </Radio.Content>
              </Radio>
            )}
            <Radio value="own">
              <Radio.Control>
                <Radio.Indicator />
              </Radio.Control>
              <Radio.Content>
                <Label>Your own value (move the slider)</Label>
              </Radio.Content>
            </Radio>
          </RadioGroup>
        )}
        <p data-testid="improvement-source">
          <ImprovementSourceText measured={measured} source={source} />
        </p>
        <ParameterSlider
          label="Adherence improvement (percentage points of treated patients moving from poor to good adherence)"
          value={points}
          minValue={0}
          maxValue={MAX_IMPROVEMENT_POINTS}
          step={0.5}
          format={(value) => `${formatDecimal(value, 1)} points`}
          onChange={movePoints}
          source={{ text: sliderSourceText(measured, source), approximate: false }}
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
                  onChange={(value) => setBaseline(condition, value)}
                  source={baselineSource(condition)}
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

function TrialText({ trial }: { trial: TrialImprovement }) {
  return (
    <>
      the primary result of the trial “{trial.trialName}”{trial.synthetic ? ' (synthetic demo data)' : ''} — the share of participants
      adherent, intervention − control, {formatDecimal(trial.points.estimate, 1)} percentage points (95% CI{' '}
      {formatDecimal(trial.points.ciLow, 1)} to {formatDecimal(trial.points.ciHigh, 1)}); {formatCount(trial.participants.intervention)}{' '}
      intervention and {formatCount(trial.participants.control)} control participants; {trial.population}; follow-up{' '}
      {formatDate(trial.period.from)} to {formatDate(trial.period.to)}.
    </>
  );
}

function ComparisonText({ comparison }: { comparison: ComparisonImprovement }) {
  return (
    <>
      the simulated policy comparison — simulated, not measured on patients: the share at PDC ≥ 0.8 over the simulated year{' '}
      {formatDate(comparison.period.from)} to {formatDate(comparison.period.to)}, {comparison.policyLabel.toLowerCase()}{' '}
      {formatPercent(comparison.policyShare, 1)} − {comparison.controlLabel.toLowerCase()} {formatPercent(comparison.controlShare, 1)} ={' '}
      {formatDecimal(comparison.points, 1)} percentage points; one synthetic cohort of {formatCount(comparison.patients)} simulated patients
      (seed {comparison.seed}), the same patients under both, so no confidence interval: the figure follows from the simulator’s
      assumptions.
    </>
  );
}

/** The sentence above the improvement slider: where its starting value comes from, with period and population. */
function ImprovementSourceText({ measured, source }: { measured: MeasuredImprovements; source: ImprovementSource }) {
  const estimate = source === 'trial' ? measured.trial?.points.estimate : source === 'comparison' ? measured.comparison?.points : undefined;
  const range =
    estimate === undefined
      ? ''
      : `${estimate < 0 ? ' The difference is negative, so the slider starts at 0.' : ''}${estimate > MAX_IMPROVEMENT_POINTS ? ` The slider stops at ${MAX_IMPROVEMENT_POINTS} points.` : ''} The slider moves in half points, so it starts at the nearest half point; you can set it instead.`;
  if (source === 'trial' && measured.trial !== null)
    return (
      <>
        Starts at the platform’s measured effect: <TrialText trial={measured.trial} />
        {range}
      </>
    );
  if (source === 'comparison' && measured.comparison !== null)
    return (
      <>
        {measured.trial === null ? 'No trial of the platform is complete yet, so it starts' : 'Starts'} at{' '}
        <ComparisonText comparison={measured.comparison} />
        {range}
      </>
    );
  if (measured.trial === null && measured.comparison === null)
    return (
      <>
        No trial of the platform is complete yet and the policy comparison has not been simulated in this server yet (it runs when the
        server starts, or open the comparison page), so there is no effect to start from: set the improvement below (it starts at 0).
      </>
    );
  return <>Set by you: move the slider, or choose a source above.</>;
}

function sliderSourceText(measured: MeasuredImprovements, source: ImprovementSource): string {
  if (source === 'trial' && measured.trial !== null)
    return `Trial “${measured.trial.trialName}”, primary binary endpoint (risk difference in the share adherent); capped at the poorly adherent.`;
  if (source === 'comparison' && measured.comparison !== null)
    return 'Simulated policy comparison, personalised policy − no messages (difference in the share at PDC ≥ 0.8); capped at the poorly adherent.';
  return 'Set by you.';
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
