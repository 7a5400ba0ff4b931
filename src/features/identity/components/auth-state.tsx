'use client';

import { usePathname } from 'next/navigation';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { setClientPreferences } from '@/lib/client-preferences';
import type { ActionResult } from '@/lib/server/action-result';
import { performLogout } from '../logout';
import { noUserLoggedIn } from '@/lib/errors';
import type { ProfileDocument } from '../schemas';

export type AuthUser = { id: string; email: string; name: string; phoneNumber?: string | null; twoFactorEnabled?: boolean | null };

/** Seed-spec §3: the state every page can read. */
export type AuthState = {
  user: AuthUser | null;
  userData: ProfileDocument | null;
  uid: string | null;
  userDataLoading: boolean;
  loggedIn: boolean;
};

export type ProfileActions = {
  updateRole: (role: unknown) => Promise<ActionResult<ProfileDocument>>;
  updateSelectedDrugCompanies: (companies: unknown) => Promise<ActionResult<ProfileDocument>>;
};

type AuthContextValue = AuthState & {
  updateRole: (role: string) => Promise<ProfileDocument>;
  updateSelectedDrugCompanies: (companies: string[] | Record<string, string>) => Promise<ProfileDocument>;
  logout: () => Promise<void>;
};

const initialState: AuthState = { user: null, userData: null, uid: null, userDataLoading: true, loggedIn: false };
const AuthContext = createContext<AuthContextValue | null>(null);

/** The profile snapshot for one uid, as the live subscription last delivered it. */
type Subscription = { uid: string; document: ProfileDocument | null } | null;

export function AuthStateProvider({ actions, children }: { actions: ProfileActions; children: ReactNode }) {
  const session = authClient.useSession();
  const [subscription, setSubscription] = useState<Subscription>(null);
  const sessionUser = (session.data?.user ?? null) as AuthUser | null;
  const sessionUserId = sessionUser?.id ?? null;
  const refetchSession = session.refetch;
  const pathname = usePathname();
  const lastActivityRefresh = useRef(0);

  // Navigating is activity: at most once a minute, ask the server again, which slides the session cookie's
  // expiry. (A timer would keep idle tabs signed in and defeat the inactivity limit.)
  useEffect(() => {
    if (sessionUserId === null || Date.now() - lastActivityRefresh.current < 60_000) return;
    lastActivityRefresh.current = Date.now();
    void authClient.getSession();
  }, [pathname, sessionUserId]);

  // On each auth change with a user: subscribe live to that user's profile document (seed-spec §4).
  useEffect(() => {
    if (sessionUserId === null) return;
    const source = new EventSource('/api/profile/stream');
    const fail = (message: string) => {
      console.error(`Profile subscription failed: ${message}`);
      setSubscription({ uid: sessionUserId, document: null });
    };
    source.addEventListener('profile', (event) => {
      setSubscription({ uid: sessionUserId, document: JSON.parse((event as MessageEvent<string>).data) as ProfileDocument | null });
    });
    source.addEventListener('subscription-error', (event) => {
      fail((JSON.parse((event as MessageEvent<string>).data) as { message: string }).message);
    });
    source.addEventListener('signed-out', () => {
      source.close();
      void refetchSession();
    });
    source.onerror = () => {
      // The browser retries a dropped connection by itself; a refused one (CLOSED) is a subscription error.
      if (source.readyState === EventSource.CLOSED) fail('the server refused the subscription');
    };
    return () => source.close();
  }, [sessionUserId, refetchSession]);

  const state: AuthState = useMemo(() => {
    if (session.isPending) return initialState;
    if (sessionUser === null) return { user: null, userData: null, uid: null, userDataLoading: false, loggedIn: false };
    if (subscription?.uid !== sessionUser.id) return { ...initialState, user: sessionUser, uid: sessionUser.id };
    return { user: sessionUser, uid: sessionUser.id, userData: subscription.document, userDataLoading: false, loggedIn: true };
  }, [session.isPending, sessionUser, subscription]);

  const runProfileAction = useCallback(
    async (action: () => Promise<ActionResult<ProfileDocument>>): Promise<ProfileDocument> => {
      if (state.uid === null) throw new Error(noUserLoggedIn);
      const result = await action();
      if (!result.ok) {
        // Seed-spec §7: write errors are logged and rethrown.
        console.error(`Profile update failed: ${result.error.message}`);
        throw new Error(result.error.message);
      }
      return result.data;
    },
    [state.uid],
  );

  const value: AuthContextValue = useMemo(
    () => ({
      ...state,
      updateRole: (role) => runProfileAction(() => actions.updateRole(role)),
      updateSelectedDrugCompanies: (companies) => runProfileAction(() => actions.updateSelectedDrugCompanies(companies)),
      logout: () =>
        performLogout({
          clearProfile: () => setSubscription(null),
          clearPreferences: (empty) => setClientPreferences(empty),
          signOut: () => authClient.signOut(),
          // Seed-spec §4 asks for a reload: no client state of the signed-in user may survive logout.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          goHomeAndReload: () => window.location.assign('/'),
        }),
    }),
    [state, actions, runProfileAction],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuthState(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuthState needs an AuthStateProvider above it.');
  return value;
}
