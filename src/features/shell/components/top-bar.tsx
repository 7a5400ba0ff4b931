'use client';

import { Button, buttonVariants } from '@heroui/react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { routes, usesFullWidthTopBar } from '@/lib/routes';

export type TopBarProps = {
  productName: string;
  onContactPress: () => void;
  /**
   * The signed-in state, supplied by the identity feature: centre links, the Portal button and the avatar
   * menu. Absent means signed out (seed-spec §6: Login and Contact Us are shown instead).
   */
  signedIn?: { brandNote?: ReactNode; centre: ReactNode; end: ReactNode; mobile: ReactNode };
  /** While the auth state is unknown, show neither the signed-out nor the signed-in actions (no flash of Login). */
  authLoading?: boolean;
};

/** Closes the mobile menu when the viewport width changes (seed-spec §2); height changes (mobile URL bars) do not count. */
function useCloseOnWidthChange(close: () => void): void {
  useEffect(() => {
    let lastWidth = window.innerWidth;
    const onResize = () => {
      if (window.innerWidth !== lastWidth) {
        lastWidth = window.innerWidth;
        close();
      }
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [close]);
}

export function TopBar({ productName, onContactPress, signedIn, authLoading = false }: TopBarProps) {
  const pathname = usePathname();
  // The menu remembers the path it was opened on, so navigating elsewhere closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const mobileMenuId = useId();
  const fullWidth = usesFullWidthTopBar(pathname);
  const closeMenu = useCallback(() => setMenuOpenOn(null), []);
  useCloseOnWidthChange(closeMenu);

  const signedOutActions = (
    <>
      <Link href={routes.login} className={buttonVariants({ variant: 'primary', size: 'sm' })}>
        Login
      </Link>
      <Button
        variant="secondary"
        size="sm"
        onPress={() => {
          closeMenu();
          onContactPress();
        }}
      >
        Contact Us
      </Button>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-separator bg-background/90 backdrop-blur" data-testid="top-bar">
      <nav
        aria-label="Main"
        data-full-width={fullWidth ? 'true' : 'false'}
        className={`mx-auto flex h-[var(--top-bar-height)] items-center gap-4 px-4 sm:px-6 ${fullWidth ? 'max-w-full' : 'max-w-6xl'}`}
      >
        <div className="flex min-w-0 flex-col justify-center leading-tight">
          <Link href={routes.home} className="text-lg font-bold tracking-tight text-foreground">
            {productName}
          </Link>
          {signedIn?.brandNote}
        </div>
        {signedIn ? <div className="hidden flex-1 items-center justify-center gap-2 md:flex">{signedIn.centre}</div> : null}
        <div className="ml-auto hidden items-center gap-2 md:flex" aria-busy={authLoading}>
          {authLoading ? null : signedIn ? signedIn.end : signedOutActions}
        </div>
        <Button
          isIconOnly
          variant="ghost"
          size="sm"
          aria-label="menu"
          aria-expanded={menuOpen}
          aria-controls={mobileMenuId}
          className="ml-auto md:hidden"
          onPress={() => setMenuOpenOn(menuOpen ? null : pathname)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </Button>
      </nav>
      <div id={mobileMenuId} hidden={!menuOpen} className="border-t border-separator px-4 py-3 md:hidden" data-testid="mobile-menu">
        <div className="flex flex-col items-stretch gap-2">{signedIn ? signedIn.mobile : signedOutActions}</div>
      </div>
    </header>
  );
}
