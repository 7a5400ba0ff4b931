import 'server-only';
import type { Database } from '@/db/client';
import { surveyResponses } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import type { SessionUser } from '@/lib/server/session';
import { startSurveyInputSchema } from '../schemas';
import { findCurrentDefinition, findLatestResponse, findOwnPatient, type SurveyState, surveyState } from './survey-store';

/**
 * A patient opens a survey: their unfinished response is resumed where they stopped (on the version they
 * started), a finished one is shown with its result, and otherwise (or when they ask to take it again) a new
 * response starts on the current version.
 */
export async function startSurveyResponse(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  input: unknown;
  now: Date;
}): Promise<SurveyState> {
  const { database, actor, now } = options;
  const input = parseInput(startSurveyInputSchema, options.input, { label: 'The survey' });
  if (actor.role !== 'patient') throw new AppError('forbidden', 'Only patients take surveys: your account is not a patient account.');
  const patient = await findOwnPatient(database, actor.id);
  if (patient === null)
    throw new AppError('forbidden', 'Your account is not linked to a patient record, so there is nowhere to keep your answers.');

  const latest = await findLatestResponse(database, patient.id, input.surveyKey);
  if (latest !== null && (latest.completedAt === null || input.restart !== true)) {
    return surveyState({
      responseId: latest.id,
      stored: { id: latest.definitionId, version: latest.version, definition: latest.definition },
      answers: latest.answers,
      completedAt: latest.completedAt,
      sex: patient.sex,
    });
  }
  const stored = await findCurrentDefinition(database, input.surveyKey);
  const [created] = await database
    .insert(surveyResponses)
    .values({ patientId: patient.id, definitionId: stored.id, surveyKey: input.surveyKey, startedAt: now, updatedAt: now })
    .returning({ id: surveyResponses.id });
  return surveyState({ responseId: created!.id, stored, answers: {}, completedAt: null, sex: patient.sex });
}
