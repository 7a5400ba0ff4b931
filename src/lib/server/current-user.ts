import { headers } from 'next/headers';
import { cache } from 'react';
import { getSessionUser, type SessionUser } from './session';

/**
 * The signed-in user of the request being rendered, or null: for server components (pages, layouts). Cached
 * per request, so a layout and its page read the session and the profile once. Route handlers and actions
 * call getSessionUser with their own request's headers.
 */
export const getCurrentUser = cache(async (): Promise<SessionUser | null> => getSessionUser(await headers()));
