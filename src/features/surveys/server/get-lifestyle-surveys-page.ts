import 'server-only';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { patients, surveyDefinitions, surveyResponses } from '@/db/schema';
import { type ShownCount, shownCount, suppressSmallCells } from '@/engine/aggregation/small-cell-suppression';
import { personas } from '@/engine/simulation/personas';
import type { SurveyDefinition } from '@/engine/surveys';
import { personaLabel } from '@/lib/domain/personas';
import { AppError } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { SessionUser } from '@/lib/server/session';
import { type SurveyKey, surveyKeys } from '../schemas';
import { findCurrentDefinition, findLatestResponse, findOwnPatient, type SurveyState, surveyState } from './survey-store';

export type DistributionCategory = { key: string; label: string; count: ShownCount };
export type DistributionMeasure = { measure: string; label: string; categories: DistributionCategory[]; answered: ShownCount };
export type CohortDistribution = {
  surveyKey: SurveyKey;
  title: string;
  description: string;
  /** Patients in the viewer's scope with a completed response: each counted once, by their latest. */
  patients: ShownCount;
  /** The first and last day a counted response was completed (UTC dates), null without any. */
  from: string | null;
  to: string | null;
  /** Whether simulated patients are among those counted (labelled "synthetic demo data"). */
  includesSynthetic: boolean;
  suppressed: boolean;
  measures: DistributionMeasure[];
};

/** One summarised result in the words the cohort's distribution uses. */
export type LabelledResult = { measure: string; label: string; value: string };

export type PatientSurveyResult = {
  pseudonym: string;
  synthetic: boolean;
  surveyKey: SurveyKey;
  version: number;
  completedAt: string;
  results: LabelledResult[];
};

export type LifestyleSurveysPage = {
  /** self: a patient with a record; unlinked: a patient account without one; staff: any other role. */
  viewer: 'self' | 'unlinked' | 'staff';
  own: Partial<Record<SurveyKey, SurveyState | null>>;
  cohort: CohortDistribution[];
  /** For care teams and admins: the latest completed results of the patients in their scope. */
  patientResults: PatientSurveyResult[] | null;
  /** For those who may edit them (admins): each survey's current version as JSON and its versions. */
  definitions: DefinitionVersions[] | null;
};

export type DefinitionVersions = {
  surveyKey: SurveyKey;
  title: string;
  version: number;
  json: string;
  versions: { version: number; changeNote: string | null; createdAt: string }[];
};

const RESULT_LIMIT = 200;

const fixedMeasureLabels: Record<string, { label: string; categories: Record<string, string> }> = {
  ipaq: {
    label: 'Physical activity (IPAQ category)',
    categories: { low: 'Low', moderate: 'Moderate', high: 'High', excluded: 'Excluded (over 960 minutes a day reported)' },
  },
  'audit-c': { label: 'Alcohol (AUDIT-C screen)', categories: { negative: 'Below the cut-off', positive: 'At or above the cut-off' } },
};

type SummaryMeasure = { measure: string; label: string; categories: { key: string; label: string }[] };

/** The adaptive survey's stored top persona, as a measure like the others. */
const personaMeasure: SummaryMeasure = {
  measure: 'persona',
  label: 'Most likely persona',
  categories: personas.map((key) => ({ key, label: personaLabel(key) })),
};

/** The measures a definition summarises to, with their labels, in the order the page shows them. */
export function measuresOf(definition: SurveyDefinition): SummaryMeasure[] {
  const measures: SummaryMeasure[] = [];
  const fixed = (measure: string, keys?: string[]) => {
    const labels = fixedMeasureLabels[measure]!;
    measures.push({
      measure,
      label: labels.label,
      categories: (keys ?? Object.keys(labels.categories)).map((key) => ({ key, label: labels.categories[key] ?? key })),
    });
  };
  if (definition.questions.some((question) => question.topic === 'ipaq')) fixed('ipaq');
  if (definition.questions.some((question) => question.topic === 'audit-c')) fixed('audit-c');
  for (const question of definition.questions) {
    if (question.kind !== 'choice' || question.topic === 'ipaq' || question.topic === 'audit-c') continue;
    if (question.topic.startsWith('barrier:')) {
      measures.push({
        measure: question.topic,
        label: question.text,
        categories: [
          { key: 'yes', label: 'Often or sometimes' },
          { key: 'no', label: 'Never' },
        ],
      });
    } else {
      measures.push({
        measure: question.id,
        label: question.text,
        categories: question.options.map((option) => ({ key: option.value, label: option.label })),
      });
    }
  }
  return measures;
}

/**
 * Puts stored summaries in words, labelled by the version they were taken on (a later version may word things
 * differently); a measure the version does not describe keeps its key. Built once per version, used per row.
 */
export function summaryLabeller(definition: SurveyDefinition): (summary: Readonly<Record<string, string>>) => LabelledResult[] {
  const measures = new Map([personaMeasure, ...measuresOf(definition)].map((measure) => [measure.measure, measure]));
  return (summary) =>
    Object.entries(summary).map(([measure, value]) => {
      const described = measures.get(measure);
      return {
        measure,
        label: described?.label ?? measure,
        value: described?.categories.find((category) => category.key === value)?.label ?? value,
      };
    });
}

async function cohortDistribution(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  surveyKey: SurveyKey;
  definition: SurveyDefinition;
}): Promise<CohortDistribution> {
  const { database, actor, surveyKey, definition } = options;
  const scope = await findCohortScope({ database, actor });
  const conditions = cohortConditions(database, scope);
  const suppressed = seesSuppressedAggregates(actor.role);
  const measureList = measuresOf(definition);
  if (definition.order === 'adaptive') measureList.unshift(personaMeasure);
  const empty: CohortDistribution = {
    surveyKey,
    title: definition.title,
    description: definition.description,
    patients: shownCount(0),
    from: null,
    to: null,
    includesSynthetic: false,
    suppressed,
    measures: measureList.map((measure) => ({
      ...measure,
      answered: shownCount(0),
      categories: measure.categories.map((category) => ({ ...category, count: shownCount(0) })),
    })),
  };
  if (conditions === null) return empty;
  const scopeSql = conditions.patients === undefined ? sql`true` : conditions.patients;
  // Each patient once, by their latest completed response; the categories counted in SQL.
  const latest = sql`
    select distinct on (survey_responses.patient_id) survey_responses.summary, survey_responses.completed_at, patients.synthetic
    from survey_responses join patients on patients.id = survey_responses.patient_id
    where survey_responses.survey_key = ${surveyKey} and survey_responses.completed_at is not null and ${scopeSql}
    order by survey_responses.patient_id, survey_responses.completed_at desc`;
  const [totals, counts] = await Promise.all([
    database.execute(sql`
      with latest as (${latest})
      select count(*)::int as patients, to_char(min(completed_at) at time zone 'UTC', 'YYYY-MM-DD') as "from",
             to_char(max(completed_at) at time zone 'UTC', 'YYYY-MM-DD') as "to", coalesce(bool_or(synthetic), false) as synthetic
      from latest`) as unknown as Promise<{ rows: { patients: number; from: string | null; to: string | null; synthetic: boolean }[] }>,
    database.execute(sql`
      with latest as (${latest})
      select item.key as measure, item.value as category, count(*)::int as patients
      from latest cross join lateral jsonb_each_text(latest.summary) as item
      group by item.key, item.value`) as unknown as Promise<{ rows: { measure: string; category: string; patients: number }[] }>,
  ]);
  const total = totals.rows[0] ?? { patients: 0, from: null, to: null, synthetic: false };
  const countOf = new Map(counts.rows.map((row) => [`${row.measure}\u0000${row.category}`, row.patients]));
  const measures = measureList.map((measure): DistributionMeasure => {
    const groups = measure.categories.map((category) => ({
      key: category.key,
      count: countOf.get(`${measure.measure}\u0000${category.key}`) ?? 0,
    }));
    const answered = groups.reduce((sum, group) => sum + group.count, 0);
    if (!suppressed) {
      return {
        ...measure,
        answered: shownCount(answered),
        categories: measure.categories.map((category, index) => ({ ...category, count: shownCount(groups[index]!.count) })),
      };
    }
    const result = suppressSmallCells({ groups, total: answered });
    return {
      ...measure,
      answered: result.total ?? shownCount(answered),
      categories: measure.categories.map((category, index) => ({ ...category, count: result.groups[index]! })),
    };
  });
  const patientsShown = suppressed ? suppressSmallCells({ groups: [], total: total.patients }).total! : shownCount(total.patients);
  return {
    surveyKey,
    title: definition.title,
    description: definition.description,
    patients: patientsShown,
    from: total.from,
    to: total.to,
    includesSynthetic: total.synthetic,
    suppressed,
    measures,
  };
}

/**
 * The lifestyle-surveys page: a patient's own surveys (resumed where they stopped, or their result), the
 * distribution of results in the viewer's cohort (small groups suppressed for roles that see suppressed
 * aggregates), and for care teams and admins their patients' latest results.
 */
export async function getLifestyleSurveysPage(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
}): Promise<LifestyleSurveysPage> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const definitions = await Promise.all(surveyKeys.map((key) => findCurrentDefinition(database, key)));

  const own: Partial<Record<SurveyKey, SurveyState | null>> = {};
  let viewer: LifestyleSurveysPage['viewer'] = 'staff';
  if (actor.role === 'patient') {
    const patient = await findOwnPatient(database, actor.id);
    viewer = patient === null ? 'unlinked' : 'self';
    if (patient !== null) {
      for (const key of surveyKeys) {
        const latest = await findLatestResponse(database, patient.id, key);
        own[key] =
          latest === null
            ? null
            : surveyState({
                responseId: latest.id,
                stored: { id: latest.definitionId, version: latest.version, definition: latest.definition },
                answers: latest.answers,
                askedOrder: latest.askedOrder,
                completedAt: latest.completedAt,
                sex: patient.sex,
              });
      }
    }
  }

  const cohort = await Promise.all(
    surveyKeys.map((surveyKey, index) => cohortDistribution({ database, actor, surveyKey, definition: definitions[index]!.definition })),
  );

  let patientResults: PatientSurveyResult[] | null = null;
  if (hasPermission(actor.role, 'patients:list')) {
    const conditions = cohortConditions(database, await findCohortScope({ database, actor }));
    const rows =
      conditions === null
        ? []
        : await database
            .select({
              pseudonym: patients.pseudonym,
              synthetic: patients.synthetic,
              surveyKey: surveyResponses.surveyKey,
              definitionId: surveyResponses.definitionId,
              version: surveyDefinitions.version,
              completedAt: surveyResponses.completedAt,
              summary: surveyResponses.summary,
            })
            .from(surveyResponses)
            .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
            .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId))
            .where(and(isNotNull(surveyResponses.completedAt), conditions.patients))
            .orderBy(desc(surveyResponses.completedAt), patients.pseudonym)
            .limit(RESULT_LIMIT);
    // Each version's definition read and its labels built once, not once per row.
    const definitionIds = [...new Set(rows.map((row) => row.definitionId))];
    const labellerOf = new Map(
      definitionIds.length === 0
        ? []
        : (
            await database
              .select({ id: surveyDefinitions.id, definition: surveyDefinitions.definition })
              .from(surveyDefinitions)
              .where(inArray(surveyDefinitions.id, definitionIds))
          ).map((row) => [row.id, summaryLabeller(row.definition)]),
    );
    patientResults = rows.map((row) => ({
      pseudonym: row.pseudonym,
      synthetic: row.synthetic,
      surveyKey: row.surveyKey as SurveyKey,
      version: row.version,
      completedAt: row.completedAt!.toISOString(),
      results: labellerOf.get(row.definitionId)!(row.summary ?? {}),
    }));
  }
  let editable: DefinitionVersions[] | null = null;
  if (hasPermission(actor.role, 'surveys:edit')) {
    const history = await database
      .select({
        surveyKey: surveyDefinitions.surveyKey,
        version: surveyDefinitions.version,
        changeNote: surveyDefinitions.changeNote,
        createdAt: surveyDefinitions.createdAt,
      })
      .from(surveyDefinitions)
      .orderBy(surveyDefinitions.surveyKey, desc(surveyDefinitions.version));
    editable = surveyKeys.map((surveyKey, index) => ({
      surveyKey,
      title: definitions[index]!.definition.title,
      version: definitions[index]!.version,
      json: JSON.stringify(definitions[index]!.definition, null, 2),
      versions: history
        .filter((row) => row.surveyKey === surveyKey)
        .map((row) => ({ version: row.version, changeNote: row.changeNote, createdAt: row.createdAt.toISOString() })),
    }));
  }
  return { viewer, own, cohort, patientResults, definitions: editable };
}
