import type { Metadata } from 'next';
import { updateProfileAction } from '@/app/_actions/profile-actions';
import { ProfileEditor } from '@/features/identity/components/profile-editor';

export const metadata: Metadata = { title: 'Profile' };

export default function ProfilePage() {
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Profile</h1>
      <ProfileEditor updateProfile={updateProfileAction} />
    </article>
  );
}
