import 'server-only';
import { createHmac } from 'node:crypto';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { clearSlidingHits, consumeSlidingRateLimit, countSlidingHits } from './rate-limit';

/**
 * Per-account step-up for password sign-in: after `failures` wrong passwords for one address within
 * `windowSeconds` (from any number of clients), further attempts for it need a solved ALTCHA check. Not a
 * lockout — anyone knowing an address could lock its owner out — but guessing gets slow and costly.
 */
export const passwordStepUpPolicy = { failures: 5, windowSeconds: 60 * 60 } as const;

const scope = 'password-failures';

const signInBody = z.object({ email: z.string() });

/** The e-mail of a sign-in request body, or null when it has none (better-auth then refuses it anyway). */
export function signInEmailOf(body: unknown): string | null {
  const parsed = signInBody.safeParse(body);
  return parsed.success ? parsed.data.email : null;
}

/**
 * The key an address's failures are counted under: a keyed hash (the instance secret) of the normalised
 * address, so neither the counters nor the audit log hold an address, and no dictionary of addresses
 * reverses it without the secret. Unknown addresses get a key too, so the answers reveal nothing.
 */
export function accountKeyOf(options: { secret: string; email: string }): string {
  const normalised = options.email.trim().toLowerCase();
  return createHmac('sha256', `${options.secret}:password-step-up`).update(normalised).digest('base64url');
}

export async function isCaptchaRequired(options: { database: Database; accountKey: string; now?: Date }): Promise<boolean> {
  const failures = await countSlidingHits({
    database: options.database,
    scope,
    subject: options.accountKey,
    windowSeconds: passwordStepUpPolicy.windowSeconds,
    now: options.now,
  });
  return failures >= passwordStepUpPolicy.failures;
}

/** Counts one wrong password; says whether this failure is the one that starts the step-up. */
export async function recordPasswordFailure(options: {
  database: Database;
  accountKey: string;
  now?: Date;
}): Promise<{ stepUpStarted: boolean }> {
  const result = await consumeSlidingRateLimit({
    database: options.database,
    scope,
    subject: options.accountKey,
    // Every failure is counted (also those made with a captcha), so the step-up lasts while guessing goes on.
    limit: Number.MAX_SAFE_INTEGER,
    windowSeconds: passwordStepUpPolicy.windowSeconds,
    now: options.now,
  });
  return { stepUpStarted: result.hits === passwordStepUpPolicy.failures };
}

/** A right password ends the run of failures. */
export async function clearPasswordFailures(options: { database: Database; accountKey: string }): Promise<void> {
  await clearSlidingHits({ database: options.database, scope, subject: options.accountKey });
}
