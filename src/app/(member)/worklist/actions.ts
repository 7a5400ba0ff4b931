'use server';

import { z } from '@/lib/zod';
import { recordRiskContact } from '@/features/risk/server/record-risk-contact';
import { authedAction } from '@/lib/server/authed-action';

export const recordRiskContactAction = authedAction({
  // The use case parses the patient id itself (it is also called from tests).
  schema: z.unknown(),
  run: (input, context) => recordRiskContact({ database: context.database, actor: context.actor, input, request: context.request }),
});
