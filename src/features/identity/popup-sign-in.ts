/** Seed-spec §9: the sign-in popup is 500×600; its closing is checked every 2 s with an 8 s grace. */
export const popupWindowFeatures = 'popup=yes,width=500,height=600';
export const popupPollMilliseconds = 2_000;
export const popupCloseGraceMilliseconds = 8_000;
export const popupMessageType = 'medaptive:popup-sign-in';

export type PopupSignInMessage = { type: typeof popupMessageType; attempt: string; ok: boolean; error?: string };

type PopupWindow = { closed: boolean; close: () => void };

export type PopupEnvironment = {
  open: (url: string) => PopupWindow | null;
  origin: string;
  onMessage: (listener: (event: { origin: string; data: unknown }) => void) => () => void;
  setInterval: (callback: () => void, milliseconds: number) => unknown;
  clearInterval: (handle: unknown) => void;
  setTimeout: (callback: () => void, milliseconds: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  newAttemptId: () => string;
};

export class PopupSignInError extends Error {
  constructor(readonly code: 'popup-blocked' | 'popup-closed-by-user' | 'cancelled-popup-request' | string) {
    super(code);
    this.name = 'PopupSignInError';
  }
}

/**
 * Firebase-style popup sign-in (seed-spec §4): closing the popup cancels the attempt, reported after the
 * grace period unless success arrived meanwhile; opening a new popup cancels the previous attempt; a blocked
 * popup is reported at once. The popup page posts its result back (same origin only).
 */
export function createPopupSignIn(environment: PopupEnvironment) {
  let cancelCurrent: ((error: PopupSignInError) => void) | null = null;

  return function signInWithPopup(buildUrl: (attempt: string) => string): Promise<void> {
    cancelCurrent?.(new PopupSignInError('cancelled-popup-request'));
    const attempt = environment.newAttemptId();
    const popup = environment.open(buildUrl(attempt));
    if (popup === null) return Promise.reject(new PopupSignInError('popup-blocked'));

    return new Promise<void>((resolve, reject) => {
      let graceTimer: unknown = null;
      const finish = (error: PopupSignInError | null) => {
        environment.clearInterval(poll);
        if (graceTimer !== null) environment.clearTimeout(graceTimer);
        stopListening();
        if (cancelCurrent === cancel) cancelCurrent = null;
        if (error === null) resolve();
        else reject(error);
      };
      const cancel = (error: PopupSignInError) => {
        if (!popup.closed) popup.close();
        finish(error);
      };
      cancelCurrent = cancel;
      const stopListening = environment.onMessage((event) => {
        const data = event.data as Partial<PopupSignInMessage> | null;
        if (event.origin !== environment.origin || data?.type !== popupMessageType || data.attempt !== attempt) return;
        finish(data.ok ? null : new PopupSignInError(data.error ?? 'internal-error'));
      });
      const poll = environment.setInterval(() => {
        if (popup.closed && graceTimer === null) {
          graceTimer = environment.setTimeout(() => finish(new PopupSignInError('popup-closed-by-user')), popupCloseGraceMilliseconds);
        }
      }, popupPollMilliseconds);
    });
  };
}

/** The browser's environment for createPopupSignIn. */
export function browserPopupEnvironment(): PopupEnvironment {
  return {
    open: (url) => window.open(url, 'medaptive-sign-in', popupWindowFeatures),
    origin: window.location.origin,
    onMessage: (listener) => {
      const handler = (event: MessageEvent) => listener({ origin: event.origin, data: event.data });
      window.addEventListener('message', handler);
      return () => window.removeEventListener('message', handler);
    },
    setInterval: (callback, milliseconds) => window.setInterval(callback, milliseconds),
    clearInterval: (handle) => window.clearInterval(handle as number),
    setTimeout: (callback, milliseconds) => window.setTimeout(callback, milliseconds),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    newAttemptId: () => crypto.randomUUID(),
  };
}
