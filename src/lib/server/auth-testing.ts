/**
 * Test support for the identity modules (like src/db/testing.ts): what a browser sends after solving the
 * ALTCHA check, and the outcome of a better-auth API call as one comparable string.
 */
import 'server-only';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createCaptchaChallenge } from './captcha';

/** A solved challenge of this installation, encoded as the widget posts it (the `x-altcha` header). */
export async function solvedCaptchaPayload(secret: string): Promise<string> {
  const challenge = await createCaptchaChallenge({ secret });
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The better-auth error of a rejected call as `STATUS:CODE`, or "ok". */
export async function outcomeOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: { status?: string; body?: { code?: string } }) => `${error.status}:${error.body?.code}`,
  );
}
