import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import type { SessionUser } from '@/lib/server/session';
import { startSurveyInputSchema } from '../schemas';
import { findOrStartResponse, findOwnPatient, type SurveyState, surveyState } from './survey-store';

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

  const found = await findOrStartResponse(database, {
    patientId: patient.id,
    surveyKey: input.surveyKey,
    now,
    afterFinished: input.restart === true ? 'start-new' : 'show',
  });
  if (found.kind === 'existing') {
    const latest = found.response;
    return surveyState({
      responseId: latest.id,
      stored: { id: latest.definitionId, version: latest.version, definition: latest.definition },
      answers: latest.answers,
      askedOrder: latest.askedOrder,
      completedAt: latest.completedAt,
      sex: patient.sex,
    });
  }
  return surveyState({
    responseId: found.responseId,
    stored: found.stored,
    answers: found.answers,
    askedOrder: [],
    completedAt: null,
    sex: patient.sex,
  });
}
