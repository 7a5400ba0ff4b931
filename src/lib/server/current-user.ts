import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { requestedPathHeader } from '@/lib/routes';
import { getSessionUser, type SessionUser } from './session';

/**
 * The signed-in user of the request being rendered, or null: for server components (pages, layouts). Cached
 * per request, so a layout and its page read the session and the profile once. Route handlers and actions
 * call getSessionUser with their own request's headers.
 */
export const getCurrentUser = cache(async (): Promise<SessionUser | null> => getSessionUser(await headers()));

/**
 * The signed-in user, or a redirect to /login that comes back to the requested page (seed-spec §6). Member
 * pages call this rather than getCurrentUser: Next renders a page alongside its layout, so a page that
 * assumed the layout's redirect would run its use case for a visitor and log the refusal as an error.
 */
export async function getSignedInUser(): Promise<SessionUser> {
  const user = await getCurrentUser();
  if (user === null) {
    const requested = (await headers()).get(requestedPathHeader) ?? '/';
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  return user;
}
