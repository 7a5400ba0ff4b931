import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { LoginPanel } from '@/features/identity/components/login/login-panel';
import { safeNextPath } from '@/lib/safe-next-path';
import { getEnvironment } from '@/lib/env';
import { getCurrentUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Login' };

type Props = { searchParams: Promise<{ next?: string; error?: string }> };

export default async function LoginPage({ searchParams }: Props) {
  const { next, error } = await searchParams;
  const destination = safeNextPath(next);
  if ((await getCurrentUser()) !== null) redirect(destination);
  const environment = getEnvironment();
  return (
    <article className="mx-auto flex max-w-md flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Login</h1>
      <LoginPanel next={destination} oidcProviderName={environment.OIDC_ISSUER ? environment.OIDC_NAME : null} errorCode={error ?? null} />
    </article>
  );
}
