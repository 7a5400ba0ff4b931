import 'server-only';
/**
 * Clinical events expected to be avoided per 1,000 patients by group — persona, condition, age band — from
 * the adherence the platform observed (issue 15 item 5): each patient with a dispensing in the reporting
 * period is adherent when their refill PDC over the period is at least 0.8; the impact model
 * (src/engine/impact) turns the group's adherence, against the country preset's baseline adherence, into
 * admissions and deaths per 1,000 patients per year with the preset's sourced relative risks. Figures are
 * computed on the server; only group aggregates leave it, through whole-page small-cell suppression for
 * viewers who see suppressed aggregates.
 */
import { asc } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { loadCohortFillsByPatient, medicationEventsFrom } from '@/db/queries/medication-events';
import { findReportingPeriod, lookbackStart, type PeriodChoice, type PeriodView, periodView } from '@/db/queries/reporting-period';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { patients } from '@/db/schema';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { PQA_ADHERENT_THRESHOLD } from '@/engine/adherence/pqa-pdc';
import { hiddenFigures, type HiddenReason, type PageCell, type SumRelation, suppressPage } from '@/engine/aggregation/page-suppression';
import { periodPdc } from '@/engine/aggregation/patient-summary';
import { hiddenCount, type ShownCount, shownCount, SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';
import { conditionLabels } from '@/engine/simulation/conditions';
import { eventsAvoidedPerPersonMoved, type Scenario, scenarioRelativeRisk, scenarios } from '@/engine/impact';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { type CountryId, countryPresets, type ModelledCondition, modelledConditions } from '../presets';

export type GroupDimension = 'persona' | 'condition' | 'age-band';

export type ScenarioFigures = Record<Scenario, number>;

export type OutcomeGroup = {
  key: string;
  label: string;
  patients: ShownCount;
  /** Share with PDC ≥ 0.8; null when hidden with the group. */
  adherentShare: number | null;
  /** Per 1,000 patients per year; null when hidden, or when no patient of the group has a modelled condition. */
  hospitalisationsAvoided: ScenarioFigures | null;
  deathsAvoided: ScenarioFigures | null;
  /** Patients of the group with a condition the model covers (the figures are over them, per 1,000 of the group). */
  modelled: boolean;
};

export type PatientOutcomes =
  | { status: 'no-company' }
  | { status: 'too-few'; period: PeriodView; country: CountryId; suppressed: true }
  | {
      status: 'ok';
      period: PeriodView;
      country: CountryId;
      suppressed: boolean;
      cohort: { patients: ShownCount; adherentShare: number | null; synthetic: boolean };
      groups: Record<GroupDimension, OutcomeGroup[]>;
    };

type Member = { persona: string; ageBand: string; conditions: string[]; adherent: boolean };

const NOT_RECORDED = 'not-recorded';

export async function getPatientOutcomes(options: {
  database: Database;
  actor: SessionUser | null;
  country: CountryId;
  choice?: PeriodChoice;
  now?: Date;
}): Promise<PatientOutcomes> {
  const { database, actor, country } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const suppressed = seesSuppressedAggregates(actor.role);
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now ?? new Date() });
  const conditions = cohortConditions(database, scope);

  // Patients of the scope (a few columns each) and their fills; those with a fill in the period are the cohort.
  const [people, fillsByPatient] = await Promise.all([
    conditions === null
      ? Promise.resolve([])
      : database
          .select({
            id: patients.id,
            persona: patients.persona,
            ageBand: patients.ageBand,
            conditions: patients.conditions,
            synthetic: patients.synthetic,
          })
          .from(patients)
          .where(conditions.patients)
          .orderBy(asc(patients.id)),
    loadCohortFillsByPatient({ database, scope, from: lookbackStart(period), to: period.end }),
  ]);
  const periodStart = isoFromDayNumber(period.start);

  // Adherent: refill PDC over the period (from the first fill when treatment began inside it) ≥ 0.8.
  const members: Member[] = [];
  let synthetic = false;
  for (const person of people) {
    const fills = fillsByPatient.get(person.id) ?? [];
    // ISO dates compare as text; fills are before the period's end already.
    if (!fills.some((fill) => fill.dispensedOn >= periodStart)) continue;
    const pdc = periodPdc(medicationEventsFrom(fills, period.end), period);
    if (pdc === null) continue;
    members.push({
      persona: person.persona ?? NOT_RECORDED,
      ageBand: person.ageBand ?? NOT_RECORDED,
      conditions: person.conditions,
      adherent: pdc.value >= PQA_ADHERENT_THRESHOLD,
    });
    synthetic ||= person.synthetic;
  }
  const view = periodView(period);
  if (suppressed && members.length < SMALL_CELL_THRESHOLD) return { status: 'too-few', period: view, country, suppressed: true };

  const groupsOf: Record<GroupDimension, (member: Member) => string[]> = {
    persona: (member) => [member.persona],
    condition: (member) => (member.conditions.length === 0 ? [NOT_RECORDED] : member.conditions),
    'age-band': (member) => [member.ageBand],
  };
  const grouped = {} as Record<GroupDimension, Map<string, Member[]>>;
  for (const dimension of Object.keys(groupsOf) as GroupDimension[]) {
    const map = new Map<string, Member[]>();
    for (const member of members) {
      for (const key of groupsOf[dimension](member)) {
        const list = map.get(key);
        if (list === undefined) map.set(key, [member]);
        else list.push(member);
      }
    }
    grouped[dimension] = new Map([...map].sort(([left], [right]) => left.localeCompare(right)));
  }

  const hidden = suppressed ? suppressOutcomes(members, grouped) : new Map<string, HiddenReason>();
  const show = (id: string, count: number): ShownCount => {
    const reason = hidden.get(id);
    return reason === undefined ? shownCount(count) : hiddenCount(reason);
  };
  const derivedHidden = hiddenFigures(
    Object.fromEntries(
      (Object.keys(grouped) as GroupDimension[]).flatMap((dimension) =>
        [...grouped[dimension].keys()].map((key) => [`${dimension}:${key}`, [`${dimension}:${key}`, `${dimension}:${key}:adherent`]]),
      ),
    ),
    hidden,
  );

  const preset = countryPresets[country];
  const perPatient = (member: Member, only: ModelledCondition | null, event: 'hospitalisation' | 'mortality', scenario: Scenario) =>
    modelledConditions
      .filter((condition) => (only === null ? member.conditions.includes(condition) : condition === only))
      .reduce((sum, condition) => {
        const parameters = preset.conditions[condition];
        const reference = parameters.baselineAdherence.value;
        const risk = event === 'hospitalisation' ? parameters.hospitalisationRelativeRisk.value : parameters.mortalityRelativeRisk.value;
        const rate = event === 'hospitalisation' ? parameters.hospitalisationRate.value : parameters.mortalityRate.value;
        // The same model as the national page with Δ = this patient's adherence (1 or 0) − the preset's baseline.
        const perMoved = eventsAvoidedPerPersonMoved({
          rate,
          adherentShare: reference,
          relativeRisk: scenarioRelativeRisk(risk, scenario),
        });
        return sum + ((member.adherent ? 1 : 0) - reference) * perMoved;
      }, 0);
  const perThousand = (list: Member[], only: ModelledCondition | null, event: 'hospitalisation' | 'mortality'): ScenarioFigures =>
    Object.fromEntries(
      scenarios.map((scenario) => [
        scenario,
        (1000 * list.reduce((sum, member) => sum + perPatient(member, only, event, scenario), 0)) / list.length,
      ]),
    ) as ScenarioFigures;

  const groups = {} as Record<GroupDimension, OutcomeGroup[]>;
  for (const dimension of Object.keys(grouped) as GroupDimension[]) {
    groups[dimension] = [...grouped[dimension]].map(([key, list]) => {
      const id = `${dimension}:${key}`;
      const only = dimension === 'condition' ? (modelledConditions.find((condition) => condition === key) ?? null) : null;
      const isModelled =
        only !== null ||
        (dimension !== 'condition' && list.some((member) => modelledConditions.some((condition) => member.conditions.includes(condition))));
      const hiddenFigure = derivedHidden.has(id);
      return {
        key,
        label: labelOf(dimension, key),
        patients: show(id, list.length),
        adherentShare: hiddenFigure ? null : list.filter((member) => member.adherent).length / list.length,
        hospitalisationsAvoided: hiddenFigure || !isModelled ? null : perThousand(list, only, 'hospitalisation'),
        deathsAvoided: hiddenFigure || !isModelled ? null : perThousand(list, only, 'mortality'),
        modelled: isModelled,
      };
    });
  }

  const cohortHidden = hidden.has('cohort') || hidden.has('cohort:adherent');
  return {
    status: 'ok',
    period: view,
    country,
    suppressed,
    cohort: {
      patients: show('cohort', members.length),
      adherentShare: cohortHidden || members.length === 0 ? null : members.filter((member) => member.adherent).length / members.length,
      synthetic,
    },
    groups,
  };
}

/**
 * The page as one set of counts (src/engine/aggregation/page-suppression.ts): the cohort, every group's size
 * and, behind each adherent share, its adherent and non-adherent counts; personas and age bands each add up
 * to the cohort (conditions overlap, so they make no sum). Returns every hidden cell.
 */
function suppressOutcomes(members: Member[], grouped: Record<GroupDimension, Map<string, Member[]>>): ReadonlyMap<string, HiddenReason> {
  const cells: PageCell[] = [];
  const sums: SumRelation[] = [];
  const adherentOf = (list: Member[]) => list.filter((member) => member.adherent).length;
  const addGroup = (id: string, list: Member[]) => {
    const adherent = adherentOf(list);
    cells.push({ id, count: list.length });
    cells.push({ id: `${id}:adherent`, count: adherent, display: 'unlabelled', shownWith: [id] });
    cells.push({ id: `${id}:non-adherent`, count: list.length - adherent, display: 'never' });
    sums.push({ total: id, parts: [`${id}:adherent`, `${id}:non-adherent`] });
  };
  addGroup('cohort', members);
  for (const dimension of ['persona', 'age-band', 'condition'] as const) {
    const ids = [...grouped[dimension]].map(([key, list]) => {
      addGroup(`${dimension}:${key}`, list);
      return `${dimension}:${key}`;
    });
    if (dimension === 'condition' || ids.length === 0) continue;
    sums.push({ total: 'cohort', parts: ids });
    sums.push({ total: 'cohort:adherent', parts: ids.map((id) => `${id}:adherent`) });
    sums.push({ total: 'cohort:non-adherent', parts: ids.map((id) => `${id}:non-adherent`) });
  }
  const result = suppressPage({ cells, sums });
  if (result.unresolved.length === 0) return result.hidden;
  // Were a group left narrower than required with nothing near it to hide, hide every count.
  return new Map(
    cells
      .filter((cell) => cell.count > 0 && cell.display !== 'never')
      .map((cell) => [cell.id, cell.count < SMALL_CELL_THRESHOLD ? ('small' as const) : ('complementary' as const)]),
  );
}

function labelOf(dimension: GroupDimension, key: string): string {
  if (key === NOT_RECORDED) return 'Not recorded';
  if (dimension === 'condition') return (conditionLabels as Record<string, string>)[key] ?? key;
  if (dimension === 'age-band') return key.replace('-', '–');
  const words = key.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
