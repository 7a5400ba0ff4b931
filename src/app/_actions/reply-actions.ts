'use server';

import { z } from '@/lib/zod';
import { markReplyRead } from '@/features/message-replies';
import { authedAction } from '@/lib/server/authed-action';

// The use case validates the id and checks that the actor may read this patient's replies (clinician of the
// patient's organisation, or admin); refusals are audited there.
export const markReplyReadAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => markReplyRead({ ...context, input, now: new Date() }),
});
