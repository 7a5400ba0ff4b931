import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: 'Settings' };

export default function SettingsPage() {
  return <PageUnderConstruction planId="settings" heading="Settings" />;
}
