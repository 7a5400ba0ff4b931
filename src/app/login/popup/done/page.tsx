import { PopupDone } from '@/features/identity/components/login/popup-pages';

export const metadata = { title: 'Signing in' };

export default async function LoginPopupDonePage({ searchParams }: { searchParams: Promise<{ attempt?: string; error?: string }> }) {
  const { attempt, error } = await searchParams;
  return <PopupDone attempt={attempt ?? ''} error={error ?? null} />;
}
