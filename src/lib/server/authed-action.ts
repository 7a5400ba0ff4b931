import { headers } from 'next/headers';
import type { z } from 'zod';
import { type Database, getDatabase } from '@/db/client';
import { clientAddressHeader } from '@/lib/client-address';
import { getEnvironment, publicUrl } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { type ActionResult, toActionResult } from './action-result';
import { requireActor } from './authorization';
import { type RequestContext, requestContextOf } from './request-context';
import { getSessionUser, type SessionUser } from './session';

/** What a server action's use case receives besides its input. */
export type ActionContext = { database: Database; actor: SessionUser; clientAddress: string | undefined; request: RequestContext };

/**
 * Whether a request's Origin is this application: the address people use (PUBLIC_URL) or the host the request
 * came to. A browser sends Origin with every POST, which is how server actions arrive; none means not a browser
 * page of ours. Next.js compares Origin with Host too; this also holds behind a proxy that rewrites Host.
 */
export function isSameOrigin(requestHeaders: Headers, publicAddress: string): boolean {
  const origin = requestHeaders.get('origin');
  if (origin === null) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const requestHost = requestHeaders.get('x-forwarded-host') ?? requestHeaders.get('host');
  return host === new URL(publicAddress).host || host === requestHost;
}

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
      if (!isSameOrigin(requestHeaders, publicUrl(getEnvironment()))) {
        throw new AppError('forbidden', 'This request did not come from a page of this application.');
      }
      const actor = requireActor(await getSessionUser(requestHeaders));
      const parsed = parseInput(options.schema, input, { label: options.label });
      return options.run(parsed, {
        database: getDatabase(),
        actor,
        clientAddress: requestHeaders.get(clientAddressHeader) ?? undefined,
        request: requestContextOf(requestHeaders),
      });
    });
}
