'use server';

import { z } from '@/lib/zod';
import { startRiskTraining } from '@/features/risk/server/start-risk-training';
import { authedAction } from '@/lib/server/authed-action';

export const startRiskTrainingAction = authedAction({
  // The use case checks the permission and the settings itself (the background job re-reads them too).
  schema: z.unknown(),
  run: (input, context) =>
    startRiskTraining({ database: context.database, actor: context.actor, input: input ?? {}, request: context.request }),
});
