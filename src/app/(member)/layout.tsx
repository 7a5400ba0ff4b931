import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { requestedPathHeader } from '@/lib/routes';
import { getSessionUser } from '@/lib/server/session';

// Seed-spec §6 / issue 3.14: these pages need a signed-in user; visitors go to /login and come back after.
export default async function MemberLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  if ((await getSessionUser(requestHeaders)) === null) {
    const requested = requestHeaders.get(requestedPathHeader) ?? '/';
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  return children;
}
