import type { ReactNode } from 'react';
import { getSignedInUser } from '@/lib/server/current-user';

// Seed-spec §6 / issue 3.14: these pages need a signed-in user; visitors go to /login and come back after.
export default async function MemberLayout({ children }: { children: ReactNode }) {
  await getSignedInUser();
  return children;
}
