'use server';

import { z } from '@/lib/zod';
import {
  answerSurveyQuestion,
  listSurveyMessages,
  offerSurveyByMessage,
  saveSurveyDefinition,
  startSurveyResponse,
} from '@/features/surveys';
import { authedAction } from '@/lib/server/authed-action';

// The use cases validate their input (they are also called from tests) and check who may act.
export const startSurveyAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => startSurveyResponse({ ...context, input, now: new Date() }),
});

export const answerSurveyAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => answerSurveyQuestion({ ...context, input, now: new Date() }),
});

export const saveSurveyDefinitionAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => saveSurveyDefinition({ ...context, input, now: new Date() }),
});

// A clinician of the patient's organisation or an admin sends the survey by WhatsApp or SMS (decision 051).
export const offerSurveyByMessageAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => offerSurveyByMessage({ ...context, input, now: new Date() }),
});

// The Patient Profile's list of surveys by message, read again while one awaits the patient (decision 063).
export const listSurveyMessagesAction = authedAction({
  schema: z.object({ patientId: z.guid({ error: 'patientId must be a patient id' }) }),
  label: 'The survey list request',
  run: ({ patientId }, context) => listSurveyMessages({ ...context, patientId }),
});
