import 'server-only';
import { createHash } from 'node:crypto';
import type { Database } from '@/db/client';
import { patientPersonaPosteriors, surveyResponses } from '@/db/schema';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { personas, type Persona } from '@/engine/simulation/personas';
import type { MessageChannel } from '@/engine/policy/message-arms';
import {
  answersFromRecord,
  informativeQuestions,
  posteriorFromAnswers,
  responseInformation,
  SIMULATED_ANSWER_NOISE,
  simulateMessageResponse,
  simulateWebResponse,
  summariseResponse,
  surveyMessageAnswerChance,
} from '@/engine/surveys';
import { surveyKeys } from '../schemas';
import { findCurrentDefinition, findPatientRecordFacts } from './survey-store';

export type SimulatedRespondent = {
  patientId: string;
  persona: Persona;
  sex: 'female' | 'male' | null;
  /** The channel the simulator gave the patient: app users answer in the app's form, the others by message. */
  preferredChannel: MessageChannel;
};

/** Share of simulated patients who began each survey (opened it, or were sent it), and the share of guessing in their answers. */
export const demoSurveyResponseShare = 0.6;
export const demoSurveyNoise = SIMULATED_ANSWER_NOISE;
const BATCH = 500;

/**
 * Synthetic survey responses for the demo cohort (labelled synthetic through `patients.synthetic`): each
 * simulated patient answers from their true persona with noise, in the order the engine asks, on the current
 * version, on their channel — in the app's form or by message — finishing or leaving off as the simulation has it;
 * last answered on a day of the `days` before `end`. Deterministic for a seed.
 */
export async function seedSurveyResponses(options: {
  database: Pick<Database, 'insert' | 'select' | 'selectDistinctOn'>;
  respondents: readonly SimulatedRespondent[];
  seed: number;
  end: Date;
  days: number;
}): Promise<number> {
  const { respondents, seed, end, days } = options;
  const database = options.database as Database;
  let inserted = 0;
  // Each respondent's record as the product reads it when a response starts (written before the responses).
  const records = await findPatientRecordFacts(
    database,
    respondents.map((respondent) => respondent.patientId),
  );
  for (const surveyKey of surveyKeys) {
    const stored = await findCurrentDefinition(database, surveyKey);
    const rows: (typeof surveyResponses.$inferInsert)[] = [];
    respondents.forEach((respondent, index) => {
      // One stream per patient and survey, so adding a survey changes nobody's other answers.
      const stream = createRandomStream(seed + stored.version * 7919 + surveyKeys.indexOf(surveyKey) * 104_729, index, 'survey');
      const uniform = () => nextUniform(stream);
      if (uniform() >= demoSurveyResponseShare) return;
      // App users answer in the app's form (channel `web`), one question at a time; the others are sent the survey
      // on their channel, at most 3 questions a message, and may leave a message unanswered (docs/decisions/047).
      const channel = respondent.preferredChannel === 'app' ? 'web' : respondent.preferredChannel;
      // What the patient's record says is not asked, as in the product (decision 068).
      const recordAnswers = answersFromRecord(stored.definition, records.get(respondent.patientId) ?? {});
      const simulation = { definition: stored.definition, persona: respondent.persona, noise: demoSurveyNoise, uniform, recordAnswers };
      const { answers, order, completed, steps } =
        channel === 'web'
          ? simulateWebResponse(simulation)
          : simulateMessageResponse({ ...simulation, answerChance: surveyMessageAnswerChance(respondent.persona, channel) });
      const posterior = posteriorFromAnswers(stored.definition, answers);
      const lastAnswerAt = new Date(end.getTime() - Math.floor(uniform() * days * 86_400_000));
      // A question a minute in the form; a message answered every 2 hours by message (judgements, for the dates only).
      const startedAt = new Date(lastAnswerAt.getTime() - Math.max(1, steps) * (channel === 'web' ? 60_000 : 2 * 3_600_000));
      rows.push({
        id: responseId(respondent.patientId, surveyKey, stored.version),
        patientId: respondent.patientId,
        definitionId: stored.id,
        surveyKey,
        channel,
        answers,
        askedOrder: order,
        // As the product stores it: a summary only once the survey is finished.
        summary: completed ? summariseResponse(stored.definition, answers, respondent.sex).summary : null,
        posterior: Object.fromEntries(personas.map((persona, position) => [persona, posterior[position]!])),
        informationBits: responseInformation(stored.definition, { answers, askedOrder: order }),
        startedAt,
        updatedAt: lastAnswerAt,
        completedAt: completed ? lastAnswerAt : null,
      });
    });
    for (let start = 0; start < rows.length; start += BATCH) {
      // Fixed ids: seeding again (forced) meets its own rows and skips them.
      const batch = await database
        .insert(surveyResponses)
        .values(rows.slice(start, start + BATCH))
        .onConflictDoNothing()
        .returning({ id: surveyResponses.id });
      inserted += batch.length;
    }
    // Each respondent's persona posterior for the message policy, from the survey that carries persona
    // information; an existing (newer, real) posterior is kept.
    const informative = new Set(informativeQuestions(stored.definition).map((question) => question.id));
    if (informative.size === 0) continue;
    // As the product does: a posterior once at least one informative question is answered.
    const posteriors = rows
      .filter((row) => (row.askedOrder ?? []).some((id) => informative.has(id)))
      .map((row) => ({
        patientId: row.patientId,
        surveyResponseId: row.id!,
        posterior: row.posterior!,
        answers: Object.keys(row.answers ?? {}).filter((id) => informative.has(id)).length,
        updatedAt: row.updatedAt!,
      }));
    for (let start = 0; start < posteriors.length; start += BATCH)
      await database
        .insert(patientPersonaPosteriors)
        .values(posteriors.slice(start, start + BATCH))
        .onConflictDoNothing();
  }
  return inserted;
}

/** A response's id derived from what it answers (md5 as a UUID), so the demo seed is repeatable. */
function responseId(patientId: string, surveyKey: string, version: number): string {
  const hex = createHash('md5').update(`survey-response:${patientId}:${surveyKey}:v${version}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
