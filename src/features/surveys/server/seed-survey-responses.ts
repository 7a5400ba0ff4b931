import 'server-only';
import { createHash } from 'node:crypto';
import type { Database } from '@/db/client';
import { patientPersonaPosteriors, surveyResponses } from '@/db/schema';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { personas, type Persona } from '@/engine/simulation/personas';
import { informativeQuestions, posteriorFromAnswers, SIMULATED_ANSWER_NOISE, simulateResponse, summariseResponse } from '@/engine/surveys';
import { surveyKeys } from '../schemas';
import { findCurrentDefinition } from './survey-store';

export type SimulatedRespondent = { patientId: string; persona: Persona; sex: 'female' | 'male' | null };

/** Share of simulated patients who answered each survey, and the share of guessing in their answers. */
export const demoSurveyResponseShare = 0.6;
export const demoSurveyNoise = SIMULATED_ANSWER_NOISE;
const BATCH = 500;

/**
 * Synthetic survey responses for the demo cohort (labelled synthetic through `patients.synthetic`): each
 * simulated patient answers from their true persona with noise, in the order the engine asks, on the current
 * version; completed on a day of the `days` before `end`. Deterministic for a seed.
 */
export async function seedSurveyResponses(options: {
  database: Pick<Database, 'insert' | 'select'>;
  respondents: readonly SimulatedRespondent[];
  seed: number;
  end: Date;
  days: number;
}): Promise<number> {
  const { respondents, seed, end, days } = options;
  const database = options.database as Database;
  let inserted = 0;
  for (const surveyKey of surveyKeys) {
    const stored = await findCurrentDefinition(database, surveyKey);
    const rows: (typeof surveyResponses.$inferInsert)[] = [];
    respondents.forEach((respondent, index) => {
      // One stream per patient and survey, so adding a survey changes nobody's other answers.
      const stream = createRandomStream(seed + stored.version * 7919 + surveyKeys.indexOf(surveyKey) * 104_729, index, 'survey');
      const uniform = () => nextUniform(stream);
      if (uniform() >= demoSurveyResponseShare) return;
      const { answers, order } = simulateResponse({
        definition: stored.definition,
        persona: respondent.persona,
        noise: demoSurveyNoise,
        uniform,
      });
      const posterior = posteriorFromAnswers(stored.definition, answers);
      const completedAt = new Date(end.getTime() - Math.floor(uniform() * days * 86_400_000));
      rows.push({
        id: responseId(respondent.patientId, surveyKey, stored.version),
        patientId: respondent.patientId,
        definitionId: stored.id,
        surveyKey,
        answers,
        askedOrder: order,
        summary: summariseResponse(stored.definition, answers, respondent.sex).summary,
        posterior: Object.fromEntries(personas.map((persona, position) => [persona, posterior[position]!])),
        startedAt: new Date(completedAt.getTime() - 5 * 60_000),
        updatedAt: completedAt,
        completedAt,
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
    const posteriors = rows.map((row) => ({
      patientId: row.patientId,
      surveyResponseId: row.id!,
      posterior: row.posterior!,
      answers: Object.keys(row.answers ?? {}).filter((id) => informative.has(id)).length,
      updatedAt: row.completedAt!,
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
