'use server';

import { z } from '@/lib/zod';
import { createTrial, enrolTrialParticipant, recordTrialExclusion, recordTrialExit, updateTrialAnalysisPlan } from '@/features/trials';
import { authedAction } from '@/lib/server/authed-action';

// Each use case validates its own input (its schema in src/features/trials/schemas.ts), checks the actor's
// role and the patient's organisation, and audits successes and refusals.
export const createTrialAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    createTrial({ database, actor, input, clientAddress: request.clientAddress, requestId: request.requestId }),
});

export const updateTrialAnalysisPlanAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    updateTrialAnalysisPlan({ database, actor, input, clientAddress: request.clientAddress, requestId: request.requestId }),
});

export const enrolTrialParticipantAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    enrolTrialParticipant({ database, actor, input, now: new Date(), clientAddress: request.clientAddress, requestId: request.requestId }),
});

export const recordTrialExclusionAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    recordTrialExclusion({ database, actor, input, now: new Date(), clientAddress: request.clientAddress, requestId: request.requestId }),
});

export const recordTrialExitAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    recordTrialExit({ database, actor, input, now: new Date(), clientAddress: request.clientAddress, requestId: request.requestId }),
});
