'use server';

import { z } from '@/lib/zod';
import { setMessagingProgramme } from '@/features/messaging-loop';
import { authedAction } from '@/lib/server/authed-action';

// The use case validates the patient and programme and checks that the actor is an admin or one of the
// patient's clinicians; changes and refusals are audited there.
export const setMessagingProgrammeAction = authedAction({
  schema: z.unknown(),
  run: (input, { database, actor, request }) =>
    setMessagingProgramme({ database, actor, input, clientAddress: request.clientAddress, requestId: request.requestId }),
});
