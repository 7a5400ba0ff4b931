import type { Metadata } from 'next';
import { updateOwnConsentsAction } from '@/app/_actions/consent-actions';
import { updateProfileAction } from '@/app/_actions/profile-actions';
import { getDatabase } from '@/db/client';
import { getOwnConsents } from '@/features/consent';
import { ConsentSection } from '@/features/consent/components/consent-section';
import { ProfileEditor } from '@/features/identity/components/profile-editor';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Profile' };

export default async function ProfilePage() {
  // The member layout has already sent visitors to /login, so there is a user here.
  const own = await getOwnConsents({ database: getDatabase(), actor: await getSignedInUser() });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Profile</h1>
      <ProfileEditor updateProfile={updateProfileAction} />
      <ConsentSection own={own} save={updateOwnConsentsAction} />
    </article>
  );
}
