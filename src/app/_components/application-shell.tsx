'use client';

import { buttonVariants, RouterProvider } from '@heroui/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { ContactModal } from '@/features/contact/components/contact-modal';
import { AccountMenu } from '@/features/identity/components/account-menu';
import { AuthStateProvider, type ProfileActions, useAuthState } from '@/features/identity/components/auth-state';
import { RoleBadge } from '@/features/shell/components/role-badge';
import { SignedInMobileNavigation, SignedInNavigation } from '@/features/shell/components/signed-in-navigation';
import { TopBar } from '@/features/shell/components/top-bar';
import { hasPermission } from '@/lib/permissions';
import { routes } from '@/lib/routes';

function ShellTopBar({ productName, onContactPress }: { productName: string; onContactPress: () => void }) {
  const { loggedIn, userData, userDataLoading, logout } = useAuthState();
  if (!loggedIn) return <TopBar productName={productName} onContactPress={onContactPress} authLoading={userDataLoading} />;
  // The portal serves manufacturers, officials and admins; for anyone else it would only say "not for you".
  const portal =
    userData !== null && hasPermission(userData.role, 'portal:view') ? (
      <Link href={routes.manufacturingPortal} className={buttonVariants({ variant: 'primary', size: 'sm' })}>
        Portal
      </Link>
    ) : null;
  return (
    <TopBar
      productName={productName}
      onContactPress={onContactPress}
      signedIn={{
        brandNote: userData ? <RoleBadge role={userData.role} selectedDrugCompanies={userData.selectedDrugCompanies} /> : null,
        centre: <SignedInNavigation productName={productName} />,
        end: (
          <>
            {portal}
            <AccountMenu onContactPress={onContactPress} />
          </>
        ),
        mobile: (
          <>
            <SignedInMobileNavigation productName={productName} />
            <div className="mt-3 flex flex-wrap gap-2 border-t border-separator pt-3">
              {portal}
              <Link href={routes.profile} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
                Profile
              </Link>
              <button type="button" className={buttonVariants({ variant: 'ghost', size: 'sm' })} onClick={onContactPress}>
                Contact Us
              </button>
              <Link href={routes.settings} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
                Settings
              </Link>
              <button type="button" className={buttonVariants({ variant: 'ghost', size: 'sm' })} onClick={() => void logout()}>
                Logout
              </button>
            </div>
          </>
        ),
      }}
    />
  );
}

/** The application shell (seed-spec §2): auth state, top bar and contact modal around every page. */
export function ApplicationShell({
  productName,
  profileActions,
  children,
}: {
  productName: string;
  profileActions: ProfileActions;
  children: ReactNode;
}) {
  const router = useRouter();
  const [contactOpen, setContactOpen] = useState(false);
  return (
    <RouterProvider navigate={(path) => router.push(String(path))}>
      <AuthStateProvider actions={profileActions}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
          Skip to content
        </a>
        <ShellTopBar productName={productName} onContactPress={() => setContactOpen(true)} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          {children}
        </main>
        <footer className="border-t border-separator px-4 py-6 text-center text-sm text-muted">
          {productName} · medication-adherence monitoring and patient engagement
        </footer>
        <ContactModal productName={productName} isOpen={contactOpen} onOpenChange={setContactOpen} />
      </AuthStateProvider>
    </RouterProvider>
  );
}
