'use client';

import { useEffect, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { popupMessageType, type PopupSignInMessage } from '../../popup-sign-in';

/** Inside the popup: starts the OpenID Connect redirect, coming back to /login/popup/done. */
export function PopupStart({ attempt }: { attempt: string }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const done = `/login/popup/done?attempt=${encodeURIComponent(attempt)}`;
    void authClient.signIn
      .social({ provider: 'oidc', callbackURL: done, errorCallbackURL: done })
      .then((result) => {
        if (result.error) setFailed(true);
      })
      .catch(() => setFailed(true));
  }, [attempt]);
  return <p role="status">{failed ? 'Signing in could not start. Close this window and try again.' : 'Opening your sign-in page…'}</p>;
}

/** Back in the popup after the provider: tells the opening window the outcome (same origin only) and closes. */
export function PopupDone({ attempt, error }: { attempt: string; error: string | null }) {
  useEffect(() => {
    const message: PopupSignInMessage = { type: popupMessageType, attempt, ok: error === null, ...(error ? { error } : {}) };
    window.opener?.postMessage(message, window.location.origin);
    window.close();
  }, [attempt, error]);
  return <p role="status">{error ? 'Signing in did not work. You can close this window.' : 'Signed in. You can close this window.'}</p>;
}
