/**
 * The adherence impact model (issue 15 item 6): clinical events and costs a gain in medication adherence
 * would be expected to avoid, from observational relative risks of good vs poor adherence. Pure: no I/O.
 *
 * Model, per condition and year:
 *   treated            T = population × prevalence × share treated
 *   baseline adherence a (share of the treated adherent); annual event rate among all the treated h
 *   relative risk of the event with good vs poor adherence RR (good = RR × poor)
 *   rate among the poorly adherent  r_poor = h / (a × RR + (1 − a))      (so that a·RR·r_poor + (1 − a)·r_poor = h)
 *   patients moved from poor to good adherence  m = min(T × Δ, T × (1 − a))   (Δ: the improvement as a share of the treated)
 *   events avoided     E = m × r_poor × (1 − RR)
 *   costs avoided      = hospitalisations avoided × cost per admission
 * Low, central and high scenarios use the upper CI limit, the point estimate and the lower CI limit of RR
 * (a smaller RR is a larger benefit). E rises as RR falls, so low ≤ central ≤ high whenever the CI holds RR.
 * The relative risks are associations from observational studies, not causal effects: so is every output.
 */

export type RelativeRisk = { estimate: number; ciLow: number; ciHigh: number };

export type ConditionInputs = {
  population: number;
  /** Share of the population with the condition, 0–1. */
  prevalence: number;
  /** Share of those with the condition who are treated with medication, 0–1. */
  shareTreated: number;
  /** Share of the treated who are adherent (good adherence), 0–1. */
  baselineAdherence: number;
  /** Hospital admissions per treated patient per year (all adherence levels together). */
  hospitalisationRate: number;
  /** Deaths per treated patient per year (all adherence levels together). */
  mortalityRate: number;
  /** Cost of one admission, in the preset's currency. */
  costPerAdmission: number;
  hospitalisationRelativeRisk: RelativeRisk;
  mortalityRelativeRisk: RelativeRisk;
};

/**
 * The gain in adherence: percentage points of the treated moving from poor to good adherence, or a share
 * of the poorly adherent who move. Either is capped at the poorly adherent (no one is moved twice).
 */
export type AdherenceImprovement = { kind: 'percentage-points'; points: number } | { kind: 'share-of-non-adherent'; share: number };

export type Scenario = 'low' | 'central' | 'high';
export const scenarios: readonly Scenario[] = ['low', 'central', 'high'];

export type ScenarioOutcome = { hospitalisations: number; deaths: number; costs: number };

export type ConditionImpact = {
  treated: number;
  nonAdherent: number;
  moved: number;
  avoided: Record<Scenario, ScenarioOutcome>;
};

function checkShare(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new RangeError(`${name} must be a share between 0 and 1 (got ${value})`);
}

function checkNonNegative(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number of 0 or more (got ${value})`);
}

function checkRelativeRisk(name: string, risk: RelativeRisk): void {
  for (const [part, value] of Object.entries(risk)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name}.${part} must be above 0 (got ${value})`);
  }
  if (!(risk.ciLow <= risk.estimate && risk.estimate <= risk.ciHigh)) {
    throw new RangeError(`${name}: the CI (${risk.ciLow} to ${risk.ciHigh}) must contain the estimate ${risk.estimate}`);
  }
}

/** RR for each scenario: the weakest association (upper limit) is the low scenario. */
export function scenarioRelativeRisk(risk: RelativeRisk, scenario: Scenario): number {
  return scenario === 'low' ? risk.ciHigh : scenario === 'central' ? risk.estimate : risk.ciLow;
}

/** The annual event rate among the poorly adherent, given the rate among all treated, the adherent share and RR. */
export function rateAmongPoorlyAdherent(options: { rate: number; adherentShare: number; relativeRisk: number }): number {
  const { rate, adherentShare, relativeRisk } = options;
  return rate / (adherentShare * relativeRisk + (1 - adherentShare));
}

/**
 * Events avoided per person who moves from poor to good adherence, per year: r_poor × (1 − RR). Negative
 * when RR > 1 (good adherence associated with more events), which no preset has.
 */
export function eventsAvoidedPerPersonMoved(options: { rate: number; adherentShare: number; relativeRisk: number }): number {
  return rateAmongPoorlyAdherent(options) * (1 - options.relativeRisk);
}

/** Patients moved from poor to good adherence among `treated`, capped at the poorly adherent. */
export function patientsMoved(treated: number, baselineAdherence: number, improvement: AdherenceImprovement): number {
  const nonAdherent = treated * (1 - baselineAdherence);
  if (improvement.kind === 'percentage-points') {
    checkNonNegative('improvement (percentage points)', improvement.points);
    return Math.min(treated * (improvement.points / 100), nonAdherent);
  }
  checkShare('improvement (share of the non-adherent)', improvement.share);
  return nonAdherent * improvement.share;
}

/** Hospitalisations, deaths and costs avoided per year for one condition, in the three scenarios. */
export function conditionImpact(inputs: ConditionInputs, improvement: AdherenceImprovement): ConditionImpact {
  checkNonNegative('population', inputs.population);
  checkShare('prevalence', inputs.prevalence);
  checkShare('share treated', inputs.shareTreated);
  checkShare('baseline adherence', inputs.baselineAdherence);
  checkNonNegative('hospitalisation rate', inputs.hospitalisationRate);
  checkNonNegative('mortality rate', inputs.mortalityRate);
  checkNonNegative('cost per admission', inputs.costPerAdmission);
  checkRelativeRisk('hospitalisation relative risk', inputs.hospitalisationRelativeRisk);
  checkRelativeRisk('mortality relative risk', inputs.mortalityRelativeRisk);

  const treated = inputs.population * inputs.prevalence * inputs.shareTreated;
  const nonAdherent = treated * (1 - inputs.baselineAdherence);
  const moved = patientsMoved(treated, inputs.baselineAdherence, improvement);
  const outcome = (scenario: Scenario): ScenarioOutcome => {
    const perPerson = (rate: number, risk: RelativeRisk) =>
      eventsAvoidedPerPersonMoved({ rate, adherentShare: inputs.baselineAdherence, relativeRisk: scenarioRelativeRisk(risk, scenario) });
    const hospitalisations = moved * perPerson(inputs.hospitalisationRate, inputs.hospitalisationRelativeRisk);
    const deaths = moved * perPerson(inputs.mortalityRate, inputs.mortalityRelativeRisk);
    return { hospitalisations, deaths, costs: hospitalisations * inputs.costPerAdmission };
  };
  return { treated, nonAdherent, moved, avoided: { low: outcome('low'), central: outcome('central'), high: outcome('high') } };
}

/** The sum of several conditions' outcomes, scenario by scenario. */
export function totalImpact(impacts: readonly ConditionImpact[]): Record<Scenario, ScenarioOutcome> {
  const sum = (scenario: Scenario): ScenarioOutcome => ({
    hospitalisations: impacts.reduce((total, impact) => total + impact.avoided[scenario].hospitalisations, 0),
    deaths: impacts.reduce((total, impact) => total + impact.avoided[scenario].deaths, 0),
    costs: impacts.reduce((total, impact) => total + impact.avoided[scenario].costs, 0),
  });
  return { low: sum('low'), central: sum('central'), high: sum('high') };
}

/**
 * Events per 1,000 patients per year expected to be avoided in a group whose observed adherent share is
 * `observedAdherentShare`, compared with the same patients at the reference adherence: the same model with
 * Δ = observed − reference (negative: more events expected than at the reference adherence).
 */
export function eventsAvoidedPerThousand(options: {
  observedAdherentShare: number;
  referenceAdherentShare: number;
  rate: number;
  relativeRisk: number;
}): number {
  checkShare('observed adherent share', options.observedAdherentShare);
  checkShare('reference adherent share', options.referenceAdherentShare);
  const perPerson = eventsAvoidedPerPersonMoved({
    rate: options.rate,
    adherentShare: options.referenceAdherentShare,
    relativeRisk: options.relativeRisk,
  });
  return 1000 * (options.observedAdherentShare - options.referenceAdherentShare) * perPerson;
}
