import type { Metadata } from 'next';
import Link from 'next/link';
import { PasswordResetPanel } from '@/features/identity/components/login/password-reset-panel';
import { routes } from '@/lib/routes';

// The link's token is in the address: never send it on to another site as a referrer.
export const metadata: Metadata = { title: 'Reset your password', referrer: 'no-referrer' };

type Props = { searchParams: Promise<{ token?: string; error?: string }> };

export default async function PasswordResetPage({ searchParams }: Props) {
  const { token, error } = await searchParams;
  return (
    <article className="mx-auto flex max-w-md flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Reset your password</h1>
      <PasswordResetPanel
        token={typeof token === 'string' && token !== '' ? token : null}
        errorCode={typeof error === 'string' ? error : null}
      />
      <Link href={routes.login} className="self-start text-sm underline">
        Back to sign in
      </Link>
    </article>
  );
}
