import 'server-only';
/**
 * Shared by the survey use cases: the current version of a survey (bringing in the built-in versions the first
 * time a process asks, docs/decisions/055), the patient record of a signed-in patient, and a response as
 * the browser sees it (questions without their likelihoods).
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, patientPersonaPosteriors, patients, surveyDefinitions, surveyMessageChunks, surveyResponses } from '@/db/schema';
import { personas } from '@/engine/simulation/personas';
import {
  answersFromRecord,
  builtInSurveyVersions,
  informativeQuestions,
  MAX_ADAPTIVE_QUESTIONS,
  nextQuestion,
  posteriorFromAnswers,
  questionsAsked,
  recordAnsweredIds,
  responseInformation,
  type PatientRecordFacts,
  type SurveyAnswers,
  type SurveyDefinition,
  type SurveyQuestion,
  summariseResponse,
  type SurveyResult,
} from '@/engine/surveys';
import { AppError } from '@/lib/errors';
import type { SurveyKey } from '../schemas';

export type StoredDefinition = { id: string; version: number; definition: SurveyDefinition };

/**
 * Brings the built-in survey versions into the database (docs/decisions/041, 055): version 1 of every survey
 * that has none, then each later built-in version (`builtInSurveyVersions`) on top of the version before it —
 * but only where the survey's newest stored version IS that built-in version. Once an admin has saved a
 * version of their own, a later built-in version is not added: their edit stays the current one and is not
 * overwritten or reordered (the admin can take the new questions over in an edit). Every version is kept;
 * a built-in version carries its change note and no author. Idempotent and safe across instances: the unique
 * (key, version) index turns a concurrent insert into a no-op.
 */
export async function ensureBuiltInSurveys(database: Database): Promise<void> {
  await database
    .insert(surveyDefinitions)
    .values(
      builtInSurveyVersions
        .filter((entry) => entry.version === 1)
        .map((entry) => ({ surveyKey: entry.definition.key, version: 1, definition: entry.definition })),
    )
    .onConflictDoNothing();
  const later = builtInSurveyVersions.filter((entry) => entry.version > 1);
  if (later.length === 0) return;
  const keys = [...new Set(later.map((entry) => entry.definition.key))];
  const stored = await database
    .select({
      surveyKey: surveyDefinitions.surveyKey,
      version: surveyDefinitions.version,
      changeNote: surveyDefinitions.changeNote,
      createdBy: surveyDefinitions.createdBy,
    })
    .from(surveyDefinitions)
    .where(inArray(surveyDefinitions.surveyKey, keys));
  for (const key of keys) {
    const rows = stored.filter((row) => row.surveyKey === key);
    if (rows.length === 0) continue;
    let newest = rows.reduce((a, b) => (b.version > a.version ? b : a));
    for (const entry of later.filter((candidate) => candidate.definition.key === key).sort((a, b) => a.version - b.version)) {
      // Already stored (a database brought up to an earlier release's built-in version): on to the next one.
      if (entry.version <= newest.version) continue;
      if (newest.version !== entry.version - 1 || !isBuiltInRow(key, newest)) break;
      await database
        .insert(surveyDefinitions)
        .values({ surveyKey: key, version: entry.version, definition: entry.definition, changeNote: entry.changeNote })
        .onConflictDoNothing();
      // Read back what holds this number now: this built-in row (ours, or another instance's that won the race),
      // or an admin's if they saved it first — then the check above stops the chain there.
      const [row] = await database
        .select({ version: surveyDefinitions.version, changeNote: surveyDefinitions.changeNote, createdBy: surveyDefinitions.createdBy })
        .from(surveyDefinitions)
        .where(and(eq(surveyDefinitions.surveyKey, key), eq(surveyDefinitions.version, entry.version)));
      if (row === undefined) break;
      newest = { surveyKey: key, ...row };
    }
  }
}

/**
 * A stored version is the built-in one when nobody wrote it (an admin's save always has an author and a
 * change note; the author is cleared only if their account goes, so the note is compared too).
 */
function isBuiltInRow(surveyKey: string, row: { version: number; changeNote: string | null; createdBy: string | null }): boolean {
  const builtIn = builtInSurveyVersions.find((entry) => entry.definition.key === surveyKey && entry.version === row.version);
  return builtIn !== undefined && row.createdBy === null && row.changeNote === builtIn.changeNote;
}

// Databases whose built-in versions this process has brought up to date (a long-lived process checks once).
const ensuredDatabases = new WeakSet<object>();

export async function findCurrentDefinition(database: Database, surveyKey: SurveyKey): Promise<StoredDefinition> {
  if (!ensuredDatabases.has(database)) {
    await ensureBuiltInSurveys(database);
    ensuredDatabases.add(database);
  }
  const select = () =>
    database
      .select({ id: surveyDefinitions.id, version: surveyDefinitions.version, definition: surveyDefinitions.definition })
      .from(surveyDefinitions)
      .where(eq(surveyDefinitions.surveyKey, surveyKey))
      .orderBy(desc(surveyDefinitions.version))
      .limit(1);
  let [row] = await select();
  if (row === undefined) {
    await ensureBuiltInSurveys(database);
    [row] = await select();
  }
  if (row === undefined) throw new AppError('not_found', `No survey named ${surveyKey}`);
  return row;
}

export type OwnPatient = { id: string; sex: 'female' | 'male' | null };

/** The patient record linked to a signed-in patient's account, or null. */
export async function findOwnPatient(database: Database, userId: string): Promise<OwnPatient | null> {
  const [row] = await database.select({ id: patients.id, sex: patients.sex }).from(patients).where(eq(patients.userId, userId));
  if (row === undefined) return null;
  return { id: row.id, sex: row.sex === 'female' || row.sex === 'male' ? row.sex : null };
}

/** A question as the browser shows it: no likelihoods, no scores. */
export type QuestionView =
  | { kind: 'choice'; id: string; text: string; help: string | null; options: { value: string; label: string }[] }
  | { kind: 'number'; id: string; text: string; help: string | null; unit: string; min: number; max: number };

function questionView(question: SurveyQuestion): QuestionView {
  const help = question.help ?? null;
  return question.kind === 'choice'
    ? {
        kind: 'choice',
        id: question.id,
        text: question.text,
        help,
        options: question.options.map(({ value, label }) => ({ value, label })),
      }
    : { kind: 'number', id: question.id, text: question.text, help, unit: question.unit, min: question.min, max: question.max };
}

export type SurveyState = {
  responseId: string;
  surveyKey: SurveyKey;
  title: string;
  description: string;
  version: number;
  order: 'fixed' | 'adaptive';
  /** Answered so far, and the most the survey can still ask in all (fixed: the questions due; adaptive: up to 5). */
  progress: { answered: number; total: number };
  question: QuestionView | null;
  completedAt: string | null;
  result: SurveyResult | null;
};

/** How many questions a fixed survey asks given the answers so far (minutes only after days > 0). */
function remainingFixed(definition: SurveyDefinition, answers: SurveyAnswers): number {
  let remaining = 0;
  const simulated: Record<string, string | number> = { ...answers };
  for (;;) {
    const step = nextQuestion({ definition, answers: simulated });
    if (step.done) return remaining;
    // Unanswered day questions are counted as if answered "some days": the minutes question may follow.
    simulated[step.question.id] = step.question.kind === 'choice' ? step.question.options[step.question.options.length - 1]!.value : 0;
    remaining += 1;
  }
}

export function surveyState(options: {
  responseId: string;
  stored: StoredDefinition;
  answers: SurveyAnswers;
  /** The questions asked so far, in order: answers outside it came from the patient's record (decision 068). */
  askedOrder: readonly string[];
  completedAt: Date | null;
  sex: 'female' | 'male' | null;
}): SurveyState {
  const { definition } = options.stored;
  const fromRecord = recordAnsweredIds(definition, options.answers, options.askedOrder);
  // Questions the patient answered: the record's answers are not counted (nor in the 5 an adaptive survey asks).
  const answered = questionsAsked(definition, options.answers, fromRecord);
  const step = options.completedAt === null ? nextQuestion({ definition, answers: options.answers, fromRecord }) : null;
  const total =
    definition.order === 'fixed'
      ? answered + (options.completedAt === null ? remainingFixed(definition, options.answers) : 0)
      : options.completedAt === null
        ? MAX_ADAPTIVE_QUESTIONS
        : answered;
  return {
    responseId: options.responseId,
    surveyKey: definition.key as SurveyKey,
    title: definition.title,
    description: definition.description,
    version: options.stored.version,
    order: definition.order,
    progress: { answered, total },
    question: step !== null && !step.done ? questionView(step.question) : null,
    completedAt: options.completedAt?.toISOString() ?? null,
    result: options.completedAt === null ? null : summariseResponse(definition, options.answers, options.sex, fromRecord),
  };
}

/**
 * What each patient's record holds that a survey question may take instead of asking (decision 068): the age band,
 * the preferred channel and the days' supply of the latest dispensing. Patients with no row are left out.
 */
export async function findPatientRecordFacts(
  database: Pick<Database, 'select' | 'selectDistinctOn'>,
  patientIds: readonly string[],
): Promise<Map<string, PatientRecordFacts>> {
  if (patientIds.length === 0) return new Map();
  const [rows, latestFills] = await Promise.all([
    database
      .select({ id: patients.id, ageBand: patients.ageBand, preferredChannel: patients.preferredChannel })
      .from(patients)
      .where(inArray(patients.id, [...patientIds])),
    database
      .selectDistinctOn([dispensings.patientId], { patientId: dispensings.patientId, daysSupply: dispensings.daysSupply })
      .from(dispensings)
      .where(inArray(dispensings.patientId, [...patientIds]))
      .orderBy(dispensings.patientId, desc(dispensings.dispensedOn)),
  ]);
  const supply = new Map(latestFills.map((fill) => [fill.patientId, String(fill.daysSupply)]));
  return new Map(
    rows.map((row) => [
      row.id,
      { 'age-band': row.ageBand, 'preferred-channel': row.preferredChannel, 'days-supply': supply.get(row.id) ?? null },
    ]),
  );
}

/** The patient's latest response to a survey (any version), with its definition. */
export async function findLatestResponse(database: Database, patientId: string, surveyKey: SurveyKey) {
  const [row] = await database
    .select({
      id: surveyResponses.id,
      answers: surveyResponses.answers,
      askedOrder: surveyResponses.askedOrder,
      completedAt: surveyResponses.completedAt,
      definitionId: surveyDefinitions.id,
      version: surveyDefinitions.version,
      definition: surveyDefinitions.definition,
    })
    .from(surveyResponses)
    .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId))
    .where(and(eq(surveyResponses.patientId, patientId), eq(surveyResponses.surveyKey, surveyKey)))
    .orderBy(desc(surveyResponses.startedAt), desc(sql`${surveyResponses.id}`))
    .limit(1);
  return row ?? null;
}

type LatestResponse = NonNullable<Awaited<ReturnType<typeof findLatestResponse>>>;

/**
 * The patient's latest response to the survey when it is unfinished (or, with `afterFinished: 'show'`, finished),
 * else a new response on the current version. The patient's row is locked while the latest is read and the new one
 * inserted, so two at once — two clinicians' offers, a patient's two tabs — continue one response instead of
 * starting two that split the answers and message the patient twice.
 */
export async function findOrStartResponse(
  database: Database,
  options: {
    patientId: string;
    surveyKey: SurveyKey;
    now: Date;
    afterFinished: 'show' | 'start-new';
    /** The channel a response started by message starts on (rates per channel, decision 047); 'web' when not given. */
    channel?: 'whatsapp' | 'sms';
  },
): Promise<
  { kind: 'existing'; response: LatestResponse } | { kind: 'started'; responseId: string; stored: StoredDefinition; answers: SurveyAnswers }
> {
  const { patientId, surveyKey, now } = options;
  const keeps = (latest: LatestResponse | null): latest is LatestResponse =>
    latest !== null && (latest.completedAt === null || options.afterFinished === 'show');
  // Resuming (the usual case) needs neither the lock nor the current version.
  const latest = await findLatestResponse(database, patientId, surveyKey);
  if (keeps(latest)) return { kind: 'existing', response: latest };
  // Outside the transaction: the first call of a process brings in the built-in versions (decision 055).
  const stored = await findCurrentDefinition(database, surveyKey);
  return database.transaction(async (transaction) => {
    await transaction.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).for('update');
    // Again under the lock: another offer or tab may have started one since.
    const current = await findLatestResponse(transaction, patientId, surveyKey);
    if (keeps(current)) return { kind: 'existing', response: current };
    // What the patient's record already says is not asked (decision 068): stored as answers, never as asked.
    const record = (await findPatientRecordFacts(transaction, [patientId])).get(patientId) ?? {};
    const answers = answersFromRecord(stored.definition, record);
    const [created] = await transaction
      .insert(surveyResponses)
      // Nothing asked yet, so no information figures: `{}`, not null (null means "not worked out", decision 047 addendum).
      .values({
        patientId,
        definitionId: stored.id,
        surveyKey,
        channel: options.channel ?? 'web',
        answers,
        informationBits: {},
        startedAt: now,
        updatedAt: now,
      })
      .returning({ id: surveyResponses.id });
    return { kind: 'started', responseId: created!.id, stored, answers };
  });
}

/**
 * Replaces the patient's latest persona posterior (read by the daily loop into the policy's decision context,
 * docs/decisions/047). Only answers that carry persona information update it: a lifestyle answer would
 * otherwise reset it to the uniform prior.
 */
export async function savePersonaPosterior(
  database: Pick<Database, 'insert'>,
  row: { patientId: string; surveyResponseId: string; posterior: Record<string, number>; answers: number; now: Date },
): Promise<void> {
  const values = {
    patientId: row.patientId,
    surveyResponseId: row.surveyResponseId,
    posterior: row.posterior,
    answers: row.answers,
    updatedAt: row.now,
  };
  await database
    .insert(patientPersonaPosteriors)
    .values(values)
    .onConflictDoUpdate({
      target: patientPersonaPosteriors.patientId,
      set: { surveyResponseId: values.surveyResponseId, posterior: values.posterior, answers: values.answers, updatedAt: values.updatedAt },
    });
}

/**
 * Stores new answers on a response in one update (browser and message answers alike): the answers, the order
 * asked, the posterior, and — when the survey's stop rule is met — completion and its summary; and replaces the
 * patient's persona posterior when an added answer carries persona information. Only if nobody answered in
 * between (the asked order is still the length read): false when someone did, and nothing is written.
 */
export async function storeSurveyAnswers(
  database: Pick<Database, 'update' | 'insert'>,
  options: {
    response: { id: string; patientId: string; answers: SurveyAnswers; askedOrder: string[]; definition: SurveyDefinition };
    added: ReadonlyArray<readonly [string, string | number]>;
    sex: 'female' | 'male' | null;
    now: Date;
  },
): Promise<{ stored: boolean; answers: SurveyAnswers; completedAt: Date | null }> {
  const { response, now } = options;
  const { definition } = response;
  const answers: Record<string, string | number> = { ...response.answers };
  for (const [id, value] of options.added) answers[id] = value;
  const askedOrder = [...response.askedOrder, ...options.added.map(([id]) => id)];
  // With the order as it will be stored: a record question the patient has just answered was asked (decision 068).
  const finished = nextQuestion({ definition, answers, fromRecord: recordAnsweredIds(definition, answers, askedOrder) }).done;
  const posterior = posteriorFromAnswers(definition, answers);
  const completedAt = finished ? now : null;
  const posteriorByPersona = Object.fromEntries(personas.map((persona, index) => [persona, posterior[index]!]));
  const informative = new Set(informativeQuestions(definition).map((candidate) => candidate.id));
  const updated = await database
    .update(surveyResponses)
    .set({
      answers,
      askedOrder,
      posterior: posteriorByPersona,
      informationBits: responseInformation(definition, { answers, askedOrder }),
      updatedAt: now,
      completedAt,
      summary: finished ? summariseResponse(definition, answers, options.sex).summary : null,
    })
    .where(
      and(
        eq(surveyResponses.id, response.id),
        isNull(surveyResponses.completedAt),
        sql`cardinality(${surveyResponses.askedOrder}) = ${response.askedOrder.length}`,
      ),
    )
    .returning({ id: surveyResponses.id });
  if (updated.length === 0) return { stored: false, answers: response.answers, completedAt: null };
  // Finished (in the browser, say) while a message of it waits for its answer or is being sent: that message closes,
  // so a reply to it is not read as an answer, clarified or held for a person, and no reminder follows (decision 051
  // addendum). A reply that finished it by message marks its own message answered after this.
  if (finished)
    await database
      .update(surveyMessageChunks)
      .set({ status: 'expired', statusReason: 'survey-completed', updatedAt: now })
      .where(and(eq(surveyMessageChunks.surveyResponseId, response.id), inArray(surveyMessageChunks.status, ['sending', 'awaiting'])));
  // The patient's latest posterior, for the message policy (issue 17 item 6).
  if (options.added.some(([id]) => informative.has(id)))
    await savePersonaPosterior(database, {
      patientId: response.patientId,
      surveyResponseId: response.id,
      posterior: posteriorByPersona,
      answers: Object.keys(answers).filter((id) => informative.has(id)).length,
      now,
    });
  return { stored: true, answers, completedAt };
}
