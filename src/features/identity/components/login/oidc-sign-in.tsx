'use client';

import { Button } from '@heroui/react';
import { useMemo, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { safeNextPath } from '@/lib/safe-next-path';
import { browserPopupEnvironment, createPopupSignIn, PopupSignInError } from '../../popup-sign-in';
import { describeSignInError } from '../../sign-in-errors';
import { FormMessage } from './form-message';

/** OpenID Connect sign-in, in a popup (500×600) or by redirecting this window. */
export function OidcSignIn({ providerName, next, onSignedIn }: { providerName: string; next: string; onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [offerRedirect, setOfferRedirect] = useState(false);
  const signInWithPopup = useMemo(() => (typeof window === 'undefined' ? null : createPopupSignIn(browserPopupEnvironment())), []);

  const redirect = async () => {
    setError(null);
    try {
      const result = await authClient.signIn.social({ provider: 'oidc', callbackURL: safeNextPath(next), errorCallbackURL: '/login' });
      if (result.error) setError(describeSignInError(result.error));
    } catch {
      setError(describeSignInError('network-request-failed'));
    }
  };

  const popup = async () => {
    if (signInWithPopup === null) return;
    setError(null);
    setOfferRedirect(false);
    try {
      await signInWithPopup((attempt) => `/login/popup?attempt=${encodeURIComponent(attempt)}`);
      // The session cookie was set in the popup: tell this window's session store to read it again.
      authClient.$store.notify('$sessionSignal');
      onSignedIn();
    } catch (caught) {
      const code = caught instanceof PopupSignInError ? caught.code : 'internal-error';
      if (code === 'cancelled-popup-request') return; // a newer popup took over; it reports for itself
      setError(describeSignInError(code));
      setOfferRedirect(code === 'popup-blocked');
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <Button variant="secondary" onPress={() => void popup()}>
        Sign in with {providerName}
      </Button>
      <Button variant="ghost" size="sm" onPress={() => void redirect()}>
        Sign in with {providerName} in this window
      </Button>
      <FormMessage error={error} />
      {offerRedirect ? (
        <Button variant="primary" size="sm" onPress={() => void redirect()}>
          Continue in this window instead
        </Button>
      ) : null}
    </div>
  );
}
