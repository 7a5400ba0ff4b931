import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPopupSignIn, type PopupEnvironment, popupMessageType, PopupSignInError } from './popup-sign-in';

function fakeEnvironment(options: { blocked?: boolean } = {}) {
  const listeners = new Set<(event: { origin: string; data: unknown }) => void>();
  const popups: { closed: boolean; close: () => void; url: string }[] = [];
  let attempts = 0;
  const environment: PopupEnvironment = {
    open: (url) => {
      if (options.blocked) return null;
      const popup = { closed: false, url, close: () => (popup.closed = true) };
      popups.push(popup);
      return popup;
    },
    origin: 'https://app.example',
    onMessage: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setInterval: (callback, milliseconds) => setInterval(callback, milliseconds),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    setTimeout: (callback, milliseconds) => setTimeout(callback, milliseconds),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    newAttemptId: () => `attempt-${(attempts += 1)}`,
  };
  const post = (origin: string, data: unknown) => {
    for (const listener of [...listeners]) listener({ origin, data });
  };
  return { environment, popups, post, listenerCount: () => listeners.size };
}

describe('createPopupSignIn', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves when the popup reports success for this attempt', async () => {
    const fake = fakeEnvironment();
    const signIn = createPopupSignIn(fake.environment);
    const result = signIn((attempt) => `/login/popup?attempt=${attempt}`);
    expect(fake.popups[0]?.url).toBe('/login/popup?attempt=attempt-1');
    fake.post('https://evil.example', { type: popupMessageType, attempt: 'attempt-1', ok: true });
    fake.post('https://app.example', { type: popupMessageType, attempt: 'attempt-0', ok: true });
    fake.post('https://app.example', { type: popupMessageType, attempt: 'attempt-1', ok: true });
    await expect(result).resolves.toBeUndefined();
    expect(fake.listenerCount()).toBe(0);
  });

  it('reports a blocked popup at once', async () => {
    const signIn = createPopupSignIn(fakeEnvironment({ blocked: true }).environment);
    await expect(signIn(() => '/x')).rejects.toEqual(new PopupSignInError('popup-blocked'));
  });

  it('reports a closed popup only after the 8 s grace, and not if success arrives within it', async () => {
    const fake = fakeEnvironment();
    const signIn = createPopupSignIn(fake.environment);
    const closed = signIn(() => '/x');
    const outcome = closed.then(
      () => 'resolved',
      (error: PopupSignInError) => error.code,
    );
    (fake.popups[0] as { closed: boolean }).closed = true;
    await vi.advanceTimersByTimeAsync(2_000); // the poll notices
    await vi.advanceTimersByTimeAsync(7_900);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await expect(outcome).resolves.toBe('popup-closed-by-user');

    const late = signIn(() => '/y');
    (fake.popups[1] as { closed: boolean }).closed = true;
    await vi.advanceTimersByTimeAsync(4_000);
    fake.post('https://app.example', { type: popupMessageType, attempt: 'attempt-2', ok: true });
    await expect(late).resolves.toBeUndefined();
  });

  it('cancels the previous attempt when a new popup opens', async () => {
    const fake = fakeEnvironment();
    const signIn = createPopupSignIn(fake.environment);
    const first = signIn(() => '/first');
    const second = signIn(() => '/second');
    await expect(first).rejects.toEqual(new PopupSignInError('cancelled-popup-request'));
    expect(fake.popups[0]?.closed).toBe(true);
    fake.post('https://app.example', { type: popupMessageType, attempt: 'attempt-2', ok: false, error: 'OAUTH_STATE_MISMATCH' });
    await expect(second).rejects.toEqual(new PopupSignInError('OAUTH_STATE_MISMATCH'));
  });
});
