import 'server-only';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Database } from '@/db/client';
import { spendToken } from './spent-tokens';

// ALTCHA (self-hosted proof of work, DESIGN §4): no third party sees the patient. A challenge lives
// 5 minutes and each solution is accepted once.
const challengeLifetimeSeconds = 5 * 60;

function keySecret(secret: string): string {
  return `${secret}:altcha-key`;
}

export async function createCaptchaChallenge(options: { secret: string }) {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(2_000, 20_000),
    deriveKey,
    expiresAt: new Date(Date.now() + challengeLifetimeSeconds * 1000),
    hmacSignatureSecret: options.secret,
    hmacKeySignatureSecret: keySecret(options.secret),
  });
}

/** Checks the widget's payload (base64 JSON of challenge and solution) and spends it. */
export async function verifyCaptchaPayload(options: {
  database: Database;
  secret: string;
  payload: string | undefined;
}): Promise<{ verified: boolean }> {
  if (options.payload === undefined || options.payload === '') return { verified: false };
  let decoded: { challenge?: unknown; solution?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(options.payload, 'base64').toString('utf8')) as typeof decoded;
  } catch {
    return { verified: false };
  }
  if (
    typeof decoded.challenge !== 'object' ||
    decoded.challenge === null ||
    typeof decoded.solution !== 'object' ||
    decoded.solution === null
  ) {
    return { verified: false };
  }
  try {
    const result = await verifySolution({
      challenge: decoded.challenge as Parameters<typeof verifySolution>[0]['challenge'],
      solution: decoded.solution as Parameters<typeof verifySolution>[0]['solution'],
      deriveKey,
      hmacSignatureSecret: options.secret,
      hmacKeySignatureSecret: keySecret(options.secret),
    });
    if (!result.verified) return { verified: false };
  } catch {
    return { verified: false };
  }
  const fresh = await spendToken({
    database: options.database,
    scope: 'captcha',
    token: JSON.stringify(decoded.challenge),
    validForSeconds: challengeLifetimeSeconds,
  });
  return { verified: fresh };
}
