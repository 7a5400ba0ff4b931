import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { requestedPathHeader } from '@/lib/routes';
import { getCurrentUser } from '@/lib/server/current-user';

// Seed-spec §6 / issue 3.14: these pages need a signed-in user; visitors go to /login and come back after.
export default async function MemberLayout({ children }: { children: ReactNode }) {
  if ((await getCurrentUser()) === null) {
    const requestHeaders = await headers();
    const requested = requestHeaders.get(requestedPathHeader) ?? '/';
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  return children;
}
