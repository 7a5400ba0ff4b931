'use server';

import { z } from '@/lib/zod';
import { updateOwnConsents } from '@/features/consent';
import { authedAction } from '@/lib/server/authed-action';

// The use case validates its input itself (z.unknown() here) and finds the patient from the session, so a
// patient can change only their own consents.
export const updateOwnConsentsAction = authedAction({
  schema: z.unknown(),
  run: (input, context) => updateOwnConsents({ ...context, input }),
});
