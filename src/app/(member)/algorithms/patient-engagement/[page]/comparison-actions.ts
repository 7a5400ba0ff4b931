'use server';

import { z } from '@/lib/zod';
import { startPolicyComparison } from '@/features/policy-comparison/server/start-policy-comparison';
import { authedAction } from '@/lib/server/authed-action';

export const runComparisonAction = authedAction({
  // The use case checks the settings itself (the background job re-reads them too).
  schema: z.unknown(),
  run: (input, context) => startPolicyComparison({ ...context, input }),
});
