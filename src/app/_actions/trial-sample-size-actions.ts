'use server';

import { z } from '@/lib/zod';
import { calculateSampleSize } from '@/features/trials';
import { authedAction } from '@/lib/server/authed-action';

// The sample-size calculator of the trial page: pure arithmetic, run here because the engine's @stdlib
// quantiles need `Function`, which the Content-Security-Policy forbids in the browser. The use case checks the input.
export const calculateSampleSizeAction = authedAction({
  schema: z.unknown(),
  run: async (input) => calculateSampleSize(input),
});
