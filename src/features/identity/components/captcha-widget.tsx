'use client';

import { useEffect, useState } from 'react';

/**
 * Loads the ALTCHA widget (a custom element, browser only) when `needed`, and says when it can be shown.
 * Forms keep their submit button disabled until then.
 */
export function useCaptchaWidget(needed = true): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (needed) void import('altcha').then(() => setReady(true));
  }, [needed]);
  return ready;
}

/**
 * The "I am not a robot" check: its solution is posted as the form field `altcha`. Change `resetKey` to show a
 * fresh check (a solution is accepted once).
 */
export function CaptchaWidget({ ready, resetKey }: { ready: boolean; resetKey?: number }) {
  return ready ? (
    <altcha-widget key={resetKey} challenge="/api/altcha/challenge" name="altcha" language="en" />
  ) : (
    <p className="text-sm text-muted">Loading the “I am not a robot” check…</p>
  );
}
