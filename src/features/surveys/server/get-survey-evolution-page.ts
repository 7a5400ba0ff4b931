import 'server-only';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { patients, surveyDefinitions, surveyResponses } from '@/db/schema';
import { isShareShowable, type ShownCount, shownCount, suppressCount } from '@/engine/aggregation/small-cell-suppression';
import {
  describeDefinitionChanges,
  informativeQuestions,
  type PersonaAccuracy,
  questionInformation,
  type SurveyAnswers,
} from '@/engine/surveys';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { type SurveyKey, surveyKeys } from '../schemas';
import { personaAccuracyFor } from './persona-accuracy-cache';
import { ensureBuiltInSurveys } from './survey-store';

export type ChannelRates = {
  channel: string;
  /** Patients in scope who started a response on this version by this channel. */
  started: ShownCount;
  completed: ShownCount;
  /** started ÷ patients in scope; null when suppressed. */
  responseRate: number | null;
  /** completed ÷ started; null when suppressed. */
  completionRate: number | null;
  /** First and last day a response was started (UTC dates). */
  from: string;
  to: string;
};

export type QuestionInformationRow = {
  id: string;
  text: string;
  answered: ShownCount;
  /** Mean bits of persona entropy removed by the answer; null when nobody answered or the count is suppressed. */
  meanBits: number | null;
  /** Whether the question's answers carry persona information at all (lifestyle items do not, by design). */
  informative: boolean;
};

export type SurveyVersionView = {
  version: number;
  createdAt: string;
  changeNote: string | null;
  /** What differs from the version before, computed from the two definitions (empty for version 1). */
  changes: string[];
  order: 'fixed' | 'adaptive';
  questionCount: number;
  channels: ChannelRates[];
  questions: QuestionInformationRow[];
};

export type SurveyEvolution = { surveyKey: SurveyKey; title: string; versions: SurveyVersionView[] };

export type AccuracyView = {
  surveyKey: SurveyKey;
  title: string;
  version: number;
  /** The fixed order: the definition's question order, without the questions the record answers. */
  fixedOrder: string[];
  /** Questions the patient's record answers (decision 068): never asked, the curves start from them. */
  fromRecord: string[];
  result: PersonaAccuracy;
};

export type SurveyEvolutionPage = {
  /** Patients in the viewer's scope: the denominator of every response rate. */
  patientsInScope: ShownCount;
  includesSynthetic: boolean;
  suppressed: boolean;
  surveys: SurveyEvolution[];
  /** Persona accuracy of the current adaptive survey on simulated patients; null without one. */
  accuracy: AccuracyView | null;
};

/**
 * The survey-evolution page: every version of each survey and what changed, response and completion rates
 * per version and channel among the patients in the viewer's scope (small groups suppressed for roles that see
 * suppressed aggregates), the information each question added in those responses, and the persona accuracy
 * of the adaptive order against the fixed order on simulated patients (docs/decisions/047).
 */
export async function getSurveyEvolutionPage(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
}): Promise<SurveyEvolutionPage> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  await ensureBuiltInSurveys(database);
  const suppressed = seesSuppressedAggregates(actor.role);
  const conditions = cohortConditions(database, await findCohortScope({ database, actor }));

  const definitions = await database
    .select({
      id: surveyDefinitions.id,
      surveyKey: surveyDefinitions.surveyKey,
      version: surveyDefinitions.version,
      definition: surveyDefinitions.definition,
      changeNote: surveyDefinitions.changeNote,
      createdAt: surveyDefinitions.createdAt,
    })
    .from(surveyDefinitions)
    .orderBy(asc(surveyDefinitions.surveyKey), asc(surveyDefinitions.version));

  let inScope = 0;
  let includesSynthetic = false;
  let rateRows: { definitionId: string; channel: string; started: number; completed: number; from: string; to: string }[] = [];
  let storedInformation: { definitionId: string; questionId: string; answered: number; bits: number }[] = [];
  let unfilledRows: { definitionId: string; answers: SurveyAnswers; askedOrder: string[] }[] = [];
  if (conditions !== null) {
    const [[population], rates, stored, unfilled] = await Promise.all([
      database
        .select({ patients: count(), synthetic: sql<boolean>`coalesce(bool_or(${patients.synthetic}), false)` })
        .from(patients)
        .where(conditions.patients),
      database
        .select({
          definitionId: surveyResponses.definitionId,
          channel: surveyResponses.channel,
          started: sql<number>`count(distinct ${surveyResponses.patientId})::int`,
          completed: sql<number>`(count(distinct ${surveyResponses.patientId}) filter (where ${surveyResponses.completedAt} is not null))::int`,
          from: sql<string>`to_char(min(${surveyResponses.startedAt}) at time zone 'UTC', 'YYYY-MM-DD')`,
          to: sql<string>`to_char(max(${surveyResponses.startedAt}) at time zone 'UTC', 'YYYY-MM-DD')`,
        })
        .from(surveyResponses)
        .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
        .where(conditions.patients)
        .groupBy(surveyResponses.definitionId, surveyResponses.channel)
        .orderBy(surveyResponses.channel),
      // The information figures stored with each response, summed per version and question in the database
      // (decision 047 addendum): the page no longer reads every response in scope.
      database
        .select({
          definitionId: surveyResponses.definitionId,
          questionId: sql<string>`information.question`,
          answered: sql<number>`count(*)::int`,
          bits: sql<number>`sum(information.bits::float8)`,
        })
        .from(surveyResponses)
        .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
        .innerJoin(sql`lateral jsonb_each_text(${surveyResponses.informationBits}) as information(question, bits)`, sql`true`)
        .where(conditions.patients)
        .groupBy(surveyResponses.definitionId, sql`information.question`),
      // Responses stored without them (before migration 0029, or by an older instance during a deploy) until the
      // start-up fill has stored theirs: worked out here.
      database
        .select({ definitionId: surveyResponses.definitionId, answers: surveyResponses.answers, askedOrder: surveyResponses.askedOrder })
        .from(surveyResponses)
        .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
        .where(and(conditions.patients, isNull(surveyResponses.informationBits), sql`${surveyResponses.answers} <> '{}'::jsonb`)),
    ]);
    inScope = population?.patients ?? 0;
    includesSynthetic = population?.synthetic ?? false;
    rateRows = rates;
    storedInformation = stored;
    unfilledRows = unfilled;
  }
  const countShown = (value: number) => (suppressed ? suppressCount(value) : shownCount(value));
  const share = (numerator: number, denominator: number) =>
    denominator === 0 || (suppressed && !isShareShowable(numerator, denominator)) ? null : numerator / denominator;

  const surveys: SurveyEvolution[] = surveyKeys.map((surveyKey) => {
    const versions = definitions.filter((row) => row.surveyKey === surveyKey);
    return {
      surveyKey,
      title: versions.at(-1)?.definition.title ?? surveyKey,
      versions: versions
        .map((row, index): SurveyVersionView => {
          const previous = index === 0 ? null : versions[index - 1]!;
          const informative = new Set(informativeQuestions(row.definition).map((question) => question.id));
          const information = questionInformation(row.definition, {
            stored: storedInformation.filter((total) => total.definitionId === row.id),
            responses: unfilledRows.filter((answer) => answer.definitionId === row.id),
          });
          return {
            version: row.version,
            createdAt: row.createdAt.toISOString(),
            changeNote: row.changeNote,
            changes: previous === null ? [] : describeDefinitionChanges(previous.definition, row.definition),
            order: row.definition.order,
            questionCount: row.definition.questions.length,
            channels: rateRows
              .filter((rate) => rate.definitionId === row.id)
              .map((rate) => ({
                channel: rate.channel,
                started: countShown(rate.started),
                completed: countShown(rate.completed),
                responseRate: share(rate.started, inScope),
                completionRate: share(rate.completed, rate.started),
                from: rate.from,
                to: rate.to,
              })),
            questions: information.map((entry) => {
              const answered = countShown(entry.answered);
              return {
                id: entry.questionId,
                text: row.definition.questions.find((question) => question.id === entry.questionId)!.text,
                answered,
                meanBits: entry.answered === 0 || answered.suppressed ? null : entry.meanBits,
                informative: informative.has(entry.questionId),
              };
            }),
          };
        })
        .reverse(),
    };
  });

  // The accuracy comparison is about the adaptive survey's current version.
  const current = surveyKeys
    .map((surveyKey) => definitions.filter((row) => row.surveyKey === surveyKey).at(-1))
    .find((row) => row !== undefined && row.definition.order === 'adaptive' && informativeQuestions(row.definition).length > 0);
  const measured = current === undefined ? [] : informativeQuestions(current.definition);
  const accuracy: AccuracyView | null =
    current === undefined
      ? null
      : {
          surveyKey: current.surveyKey as SurveyKey,
          title: current.definition.title,
          version: current.version,
          fixedOrder: measured.filter((question) => question.recordField === undefined).map((question) => question.id),
          fromRecord: measured.filter((question) => question.recordField !== undefined).map((question) => question.id),
          result: await personaAccuracyFor({ definitionId: current.id, definition: current.definition }),
        };
  return { patientsInScope: countShown(inScope), includesSynthetic, suppressed, surveys, accuracy };
}
