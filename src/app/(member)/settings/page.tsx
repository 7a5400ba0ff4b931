import type { Metadata } from 'next';
import { SecuritySettings } from '@/features/identity/components/security-settings';

export const metadata: Metadata = { title: 'Settings' };

export default function SettingsPage() {
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Settings</h1>
      <SecuritySettings />
    </article>
  );
}
