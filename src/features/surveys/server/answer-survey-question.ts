import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { surveyDefinitions, surveyResponses } from '@/db/schema';
import { nextQuestion, recordAnsweredIds } from '@/engine/surveys';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { answerSurveyInputSchema } from '../schemas';
import { findOwnPatient, storeSurveyAnswers, type SurveyState, surveyState } from './survey-store';

/**
 * Saves one answer as soon as it is given (so a survey can be left and resumed), then works out the next
 * question; when the survey's stop rule is met the response is completed and its summary stored. Only the
 * question the survey asks next may be answered, with one of its answers (or a whole number in its range).
 */
export async function answerSurveyQuestion(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  input: unknown;
  now: Date;
  request?: Partial<RequestContext>;
}): Promise<SurveyState> {
  const { database, actor, now } = options;
  const input = parseInput(answerSurveyInputSchema, options.input, { label: 'The answer' });
  const patient = actor.role === 'patient' ? await findOwnPatient(database, actor.id) : null;
  const [row] =
    patient === null
      ? []
      : await database
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
          .where(and(eq(surveyResponses.id, input.responseId), eq(surveyResponses.patientId, patient.id)));
  if (row === undefined || patient === null) {
    // Someone else's response (or none): told it does not exist, and the attempt is audited.
    await recordAuditEvent(database, {
      action: 'survey.answer',
      outcome: 'denied',
      actorUserId: actor.id,
      ...options.request,
      details: { role: actor.role, responseId: input.responseId },
    });
    throw new AppError('not_found', 'No such survey response: responseId');
  }
  if (row.completedAt !== null) throw new AppError('conflict', 'This survey is already finished; start it again to answer anew.');

  const { definition } = row;
  const step = nextQuestion({ definition, answers: row.answers, fromRecord: recordAnsweredIds(definition, row.answers, row.askedOrder) });
  if (step.done || step.question.id !== input.questionId) {
    throw new AppError('conflict', 'That question is not the one this survey asks now: reload the page to see where you are.', {
      fieldErrors: { questionId: 'not the current question' },
    });
  }
  const question = step.question;
  let answer: string | number;
  if (question.kind === 'choice') {
    const option = question.options.find((candidate) => candidate.value === String(input.answer));
    if (option === undefined)
      throw new AppError('validation', 'Choose one of the answers.', { fieldErrors: { answer: 'not one of the answers' } });
    answer = option.value;
  } else {
    const value = typeof input.answer === 'number' ? input.answer : Number(input.answer);
    if (!Number.isInteger(value) || value < question.min || value > question.max) {
      throw new AppError('validation', `Enter a whole number of ${question.unit} from ${question.min} to ${question.max}.`, {
        fieldErrors: { answer: `a whole number from ${question.min} to ${question.max}` },
      });
    }
    answer = value;
  }

  const saved = await database.transaction((transaction) =>
    storeSurveyAnswers(transaction, {
      response: { id: row.id, patientId: patient.id, answers: row.answers, askedOrder: row.askedOrder, definition },
      added: [[question.id, answer]],
      sex: patient.sex,
      now,
    }),
  );
  if (!saved.stored) throw new AppError('conflict', 'This survey changed in another window: reload the page to see where you are.');
  const { answers, completedAt } = saved;
  return surveyState({
    responseId: row.id,
    stored: { id: row.definitionId, version: row.version, definition },
    answers,
    askedOrder: [...row.askedOrder, question.id],
    completedAt,
    sex: patient.sex,
  });
}
