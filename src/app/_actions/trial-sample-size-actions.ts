'use server';

import { sampleSizeInputSchema, sampleSizeOf } from '@/features/trials';
import { authedAction } from '@/lib/server/authed-action';

// The sample-size calculator of the trial page: pure arithmetic, run here because the engine's @stdlib
// quantiles need `Function`, which the Content-Security-Policy forbids in the browser.
export const calculateSampleSizeAction = authedAction({
  schema: sampleSizeInputSchema,
  label: 'The sample-size calculation',
  run: async (input) => sampleSizeOf(input),
});
