import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { grantRoleAction, setCompanyMembershipAction } from '@/app/_actions/profile-actions';
import { getDatabase } from '@/db/client';
import { UserAdministration } from '@/features/identity/components/user-administration';
import { listUsers } from '@/features/identity/server/list-users';
import { isAppError } from '@/lib/errors';
import { getSignedInUser } from '@/lib/server/current-user';
import { requestContextOf } from '@/lib/server/request-context';

export const metadata: Metadata = { title: 'Administration' };

export default async function AdminPage() {
  let listing;
  try {
    listing = await listUsers({ database: getDatabase(), actor: await getSignedInUser(), request: requestContextOf(await headers()) });
  } catch (error) {
    if (isAppError(error) && error.code === 'forbidden') {
      return (
        <article className="flex flex-col gap-4">
          <h1 className="text-3xl font-semibold tracking-tight">Administration</h1>
          <p role="alert">Only administrators can manage users and roles.</p>
        </article>
      );
    }
    throw error;
  }
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Administration</h1>
      <p className="text-muted">
        Grant roles and company memberships. A change applies on the user’s next request and reaches their open pages at once.
      </p>
      <UserAdministration
        users={listing.users}
        companies={listing.companies}
        grantRole={grantRoleAction}
        setCompanyMembership={setCompanyMembershipAction}
      />
    </article>
  );
}
