import { PopupStart } from '@/features/identity/components/login/popup-pages';

export const metadata = { title: 'Signing in' };

export default async function LoginPopupPage({ searchParams }: { searchParams: Promise<{ attempt?: string }> }) {
  return <PopupStart attempt={(await searchParams).attempt ?? ''} />;
}
