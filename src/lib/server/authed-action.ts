import { headers } from 'next/headers';
import type { z } from 'zod';
import { type Database, getDatabase } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { type ActionResult, toActionResult } from './action-result';
import { requireActor } from './authorization';
import { type RequestContext, requestContextOf } from './request-context';
import { requireSameOrigin } from './require-same-origin';
import { getSessionUser, type SessionUser } from './session';

/** What a server action's use case receives besides its input. */
export type ActionContext = { database: Database; actor: SessionUser; request: RequestContext };

/**
 * The one shape of a server action: checks the Origin, requires a signed-in user ("No user logged in"),
 * parses the one argument with `schema` (an error names every field), calls the use case, and answers an
 * ActionResult (an AppError keeps its code, message and field errors; anything else is logged and hidden).
 * Use `z.unknown()` when the use case validates its input itself (it is also called from tests and jobs).
 */
export function authedAction<Schema extends z.ZodType, T>(options: {
  schema: Schema;
  /** Names the input in a validation message ("The profile update is not valid: …"). */
  label?: string;
  run: (input: z.output<Schema>, context: ActionContext) => Promise<T>;
}): (input: unknown) => Promise<ActionResult<T>> {
  return async (input) =>
    toActionResult(async () => {
      const requestHeaders = await headers();
      requireSameOrigin(requestHeaders, { requireBrowser: true });
      const actor = requireActor(await getSessionUser(requestHeaders));
      const parsed = parseInput(options.schema, input, { label: options.label });
      return options.run(parsed, {
        database: getDatabase(),
        actor,
        request: requestContextOf(requestHeaders),
      });
    });
}
