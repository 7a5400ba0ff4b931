'use server';

import { z } from '@/lib/zod';
import { startWhatIfRun } from '@/features/policy-lab/server/start-what-if-run';
import { authedAction } from '@/lib/server/authed-action';

export const startWhatIfAction = authedAction({
  // The use case checks the settings itself (the background job re-reads them too).
  schema: z.unknown(),
  run: (input, context) => startWhatIfRun({ ...context, input }),
});
