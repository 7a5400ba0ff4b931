import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: 'Profile' };

export default function ProfilePage() {
  return <PageUnderConstruction planId="profile" heading="Profile" />;
}
