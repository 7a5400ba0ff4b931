'use server';

import { z } from '@/lib/zod';
import { recordDoseAnswer, undoDoseAnswer } from '@/features/patient-home';
import { authedAction } from '@/lib/server/authed-action';

// The use cases parse the answer, check that the dose is one of the patient's own doses today, and audit.
export const recordDoseAnswerAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) => recordDoseAnswer({ database, actor, input, now: new Date(), request }),
});

export const undoDoseAnswerAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) => undoDoseAnswer({ database, actor, input, now: new Date(), request }),
});
