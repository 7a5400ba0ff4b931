import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, rateLimitCounters } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { clientAddressHeader } from '@/lib/client-address';
import { parseEnvironment } from '@/lib/env';
import { type Auth, createAuthForDatabase } from './auth';
import { outcomeOf, solvedCaptchaPayload } from './auth-testing';
import { loadInstanceSecret } from './instance-secret';
import { accountKeyOf } from './password-step-up';

const password = 'a long enough passphrase';
const wrongPassword = 'not the passphrase at all';

describe.each(testDatabaseBackends())('password step-up on $name', (backend) => {
  let database: TestDatabase;
  let auth: Auth;
  let secret: string;
  let clients = 0;
  const environment = parseEnvironment({ LOG_LEVEL: 'silent' });
  beforeEach(async () => {
    database = await backend.create();
    auth = await createAuthForDatabase(database.database, environment);
    secret = await loadInstanceSecret(database.database, environment.AUTH_SECRET);
  });
  afterEach(async () => {
    await database.dispose();
  });

  /** Every attempt comes from another client address, as in a distributed attack (no per-client limit applies). */
  async function headers(options: { captcha?: boolean } = {}): Promise<Headers> {
    clients += 1;
    const result = new Headers({ [clientAddressHeader]: `10.9.${Math.floor(clients / 250)}.${clients % 250}` });
    if (options.captcha === true) {
      result.set('x-altcha', await solvedCaptchaPayload(secret));
    }
    return result;
  }

  async function signIn(email: string, withPassword: string, options: { captcha?: boolean } = {}): Promise<string> {
    return outcomeOf(auth.api.signInEmail({ body: { email, password: withPassword }, headers: await headers(options) }));
  }

  async function confirmedAccount(email: string): Promise<void> {
    const { user } = await auth.api.signUpEmail({ body: { email, password, name: 'Test Person' } });
    await database.database.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, user.id));
  }

  /** Moves every stored counter `seconds` into the past, as if that time had gone by. */
  async function letTimePass(seconds: number) {
    await database.execute(`update rate_limit_counters set window_start = window_start - interval '${seconds} seconds'`);
  }

  /** The answers to: 5 wrong passwords, the right one without and with a forged captcha, a wrong one with a captcha. */
  async function answersAfterFiveFailures(email: string, rightPassword: string): Promise<string[]> {
    const answers: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await signIn(email, wrongPassword));
    answers.push(await signIn(email, rightPassword));
    const forged = await headers();
    forged.set('x-altcha', Buffer.from(JSON.stringify({ challenge: {}, solution: {} })).toString('base64'));
    answers.push(await outcomeOf(auth.api.signInEmail({ body: { email, password: rightPassword }, headers: forged })));
    answers.push(await signIn(email, wrongPassword, { captcha: true }));
    answers.push(await signIn(email, rightPassword));
    return answers;
  }

  const expectedAnswers = [
    ...Array.from({ length: 5 }, () => 'UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD'),
    'FORBIDDEN:CAPTCHA_REQUIRED',
    'FORBIDDEN:CAPTCHA_REQUIRED',
    'UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD',
    'FORBIDDEN:CAPTCHA_REQUIRED',
  ];

  it('asks for a captcha after 5 wrong passwords from any clients; with one the right password signs in and resets the count', async () => {
    await confirmedAccount('target@example.org');
    // The address is normalised: another case counts for the same account.
    expect(await answersAfterFiveFailures('Target@Example.ORG', password)).toEqual(expectedAnswers);
    // The counters are stored under a hash, never the address.
    const counters = await database.database.select({ key: rateLimitCounters.key }).from(rateLimitCounters);
    expect(counters.length).toBeGreaterThan(0);
    expect(JSON.stringify(counters)).not.toMatch(/example\.org/i);

    expect(await signIn('target@example.org', password, { captcha: true })).toBe('ok');
    // Reset: the next attempts need no captcha, and 4 new failures do not bring it back.
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect(await signIn('target@example.org', wrongPassword)).toBe('UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD');
    expect(await signIn('target@example.org', password)).toBe('ok');

    // Other accounts are not affected.
    await confirmedAccount('bystander@example.org');
    expect(await signIn('bystander@example.org', password)).toBe('ok');

    // One audit event when the step-up starts, with the keyed hash and never the address.
    const events = await database.database.select().from(auditLog).where(eq(auditLog.action, 'sign-in.password.step-up'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      outcome: 'denied',
      targetUserId: null,
      details: { accountKey: accountKeyOf({ secret, email: 'target@example.org' }), failures: 5 },
    });
    expect(JSON.stringify(events)).not.toMatch(/example\.org/i);
  });

  it('answers an unknown address exactly like a registered one', async () => {
    await confirmedAccount('known@example.org');
    const known = await answersAfterFiveFailures('known@example.org', password);
    // For an address without an account, "the right password" is any password.
    const unknown = await answersAfterFiveFailures('nobody@example.org', password);
    expect(unknown).toEqual(known);
    expect(unknown).toEqual(expectedAnswers);
    expect(await signIn('nobody@example.org', password, { captcha: true })).toBe('UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD');
    // The unknown address's step-up was recorded as well (same events for both).
    const events = await database.database.select().from(auditLog).where(eq(auditLog.action, 'sign-in.password.step-up'));
    expect(events).toHaveLength(2);
  });

  it('ends the step-up once the failures are an hour old', async () => {
    await confirmedAccount('patient@example.org');
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect(await signIn('patient@example.org', wrongPassword)).toBe('UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD');
    expect(await signIn('patient@example.org', password)).toBe('FORBIDDEN:CAPTCHA_REQUIRED');

    // 58 minutes later the failures still count; after the hour they do not.
    await letTimePass(58 * 60);
    expect(await signIn('patient@example.org', password)).toBe('FORBIDDEN:CAPTCHA_REQUIRED');
    await letTimePass(2 * 60 + 1);
    expect(await signIn('patient@example.org', password)).toBe('ok');
  });
});
