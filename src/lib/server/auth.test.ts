import { createHmac } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, authTwoFactors, authUsers, authVerifications, outboxMessages } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { clientAddressHeader } from '@/lib/client-address';
import { parseEnvironment } from '@/lib/env';
import { type Auth, createAuthForDatabase } from './auth';
import { outcomeOf, solvedCaptchaPayload } from './auth-testing';
import { loadInstanceSecret } from './instance-secret';

const password = 'a long enough passphrase';
const phone = '+447700900123';

/** RFC 6238 (SHA-1, 30 s, 6 digits) over the base32 key of a totpURI, as an authenticator app computes it. */
function totp(base32Key: string, stepOffset: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of base32Key.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(character).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + stepOffset));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest[digest.length - 1] as number) & 0x0f;
  return ((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

/** The cookies a response sets, as a request Cookie header (name=value pairs only). */
function cookiesOf(response: Response, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0] ?? '', pair] as const),
  );
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0] ?? '';
    jar.set(pair.split('=')[0] ?? '', pair);
  }
  return [...jar.values()].join('; ');
}

describe.each(testDatabaseBackends())('sign-in guarantees on $name', (backend) => {
  let database: TestDatabase;
  let auth: Auth;
  let secret: string;
  const environment = parseEnvironment({ LOG_LEVEL: 'silent' });
  beforeEach(async () => {
    database = await backend.create();
    auth = await createAuthForDatabase(database.database, environment);
    secret = await loadInstanceSecret(database.database, environment.AUTH_SECRET);
  });
  afterEach(async () => {
    await database.dispose();
  });

  /** Request headers of one client with a solved ALTCHA challenge, as the phone form sends them. */
  async function phoneFormHeaders(): Promise<Headers> {
    return new Headers({
      'x-altcha': await solvedCaptchaPayload(secret),
      [clientAddressHeader]: '10.1.2.3',
      'x-request-id': 'req-phone-form-1',
    });
  }

  async function latestSmsCode(to: string): Promise<string> {
    const [message] = await database.database
      .select({ body: outboxMessages.body })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.channel, 'sms'), eq(outboxMessages.recipient, to)))
      .orderBy(desc(outboxMessages.createdAt))
      .limit(1);
    const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
    if (code === undefined) throw new Error(`no SMS code to ${to}`);
    return code;
  }

  /** Moves every per-number and per-client SMS counter a minute into the past, as if a minute had gone by. */
  async function letAMinutePass() {
    await database.execute(`update rate_limit_counters set window_start = window_start - interval '61 seconds'`);
  }

  it('accepts only the latest phone code: a second code replaces the first', async () => {
    await auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: await phoneFormHeaders() });
    const first = await latestSmsCode(phone);
    // The send is audited with the request it came from (issue 10 item 9).
    const sends = await database.database
      .select({ outcome: auditLog.outcome, requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog)
      .where(eq(auditLog.action, 'sms-code.send'));
    expect(sends).toEqual([{ outcome: 'success', requestId: 'req-phone-form-1', clientAddress: '10.1.2.3' }]);

    // A second code within the minute is refused (1 per number per minute); a minute later it is sent.
    expect(await outcomeOf(auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: await phoneFormHeaders() }))).toBe(
      'TOO_MANY_REQUESTS:TOO_MANY_ATTEMPTS',
    );
    let second = first;
    while (second === first) {
      // Two random 6-digit codes coincide once in a million; ask again rather than assert on luck.
      await letAMinutePass();
      await auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: await phoneFormHeaders() });
      second = await latestSmsCode(phone);
    }

    // Stored as a keyed hash, never as the code.
    const stored = await database.database
      .select({ value: authVerifications.value })
      .from(authVerifications)
      .where(eq(authVerifications.identifier, `phone-number-otp-${phone}`));
    expect(stored.length).toBeGreaterThan(0);
    for (const { value } of stored) {
      expect(value).toMatch(/^h\$[\w-]{43}:0$/);
      expect(value).not.toContain(first);
      expect(value).not.toContain(second);
    }

    expect(await outcomeOf(auth.api.verifyPhoneNumber({ body: { phoneNumber: phone, code: first } }))).toBe('BAD_REQUEST:INVALID_OTP');
    const signedIn = await auth.api.verifyPhoneNumber({ body: { phoneNumber: phone, code: second } });
    expect(signedIn.status).toBe(true);
    expect(signedIn.token).toBeTruthy();
    // Used once: the accepted code is gone, and so is the replaced one.
    expect(await outcomeOf(auth.api.verifyPhoneNumber({ body: { phoneNumber: phone, code: second } }))).toBe('BAD_REQUEST:OTP_NOT_FOUND');
    expect(await outcomeOf(auth.api.verifyPhoneNumber({ body: { phoneNumber: phone, code: first } }))).toBe('BAD_REQUEST:OTP_NOT_FOUND');
  });

  /** A confirmed e-mail account, signed in; its Cookie header. */
  async function signedInAccount(email: string): Promise<{ userId: string; cookie: string }> {
    const { user } = await auth.api.signUpEmail({ body: { email, password, name: 'Test Person' } });
    await database.database.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, user.id));
    const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
    expect(response.status).toBe(200);
    return { userId: user.id, cookie: cookiesOf(response) };
  }

  /** Password sign-in of an account with two-factor on: the second-step cookie (a fresh challenge). */
  async function startSecondStep(email: string): Promise<Headers> {
    const response = await auth.api.signInEmail({
      body: { email, password },
      asResponse: true,
      headers: new Headers({ [clientAddressHeader]: '10.1.2.4' }),
    });
    expect(await response.clone().json()).toMatchObject({ twoFactorRedirect: true });
    return new Headers({ cookie: cookiesOf(response), [clientAddressHeader]: '10.1.2.4' });
  }

  async function enrolAuthenticatorApp(email: string): Promise<{ userId: string; key: string; spent: Set<string> }> {
    const { userId, cookie } = await signedInAccount(email);
    const { totpURI } = (await auth.api.enableTwoFactor({ body: { password }, headers: new Headers({ cookie }) })) as { totpURI: string };
    const key = new URL(totpURI).searchParams.get('secret') ?? '';
    const code = totp(key, 0);
    await auth.api.verifyTOTP({ body: { code }, headers: new Headers({ cookie }) });
    // Each code is accepted once (our after-hook), so the tests never reuse the enrolment code.
    return { userId, key, spent: new Set([code]) };
  }

  /**
   * A valid code not yet used to sign in (better-auth accepts the current step and its neighbours; the next
   * step first, as it stays valid longest). Only a sign-in spends it.
   */
  function unusedCode(account: { key: string; spent: Set<string> }): string {
    const code = [1, 0, -1].map((offset) => totp(account.key, offset)).find((candidate) => !account.spent.has(candidate));
    if (code === undefined) throw new Error('no unused code in the accepted window');
    return code;
  }

  function wrongCode(account: { key: string }): string {
    const valid = new Set([-1, 0, 1].map((offset) => totp(account.key, offset)));
    return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code)) as string;
  }

  async function twoFactorRow(userId: string) {
    const [row] = await database.database.select().from(authTwoFactors).where(eq(authTwoFactors.userId, userId));
    return row;
  }

  it('locks second-factor sign-in after 10 wrong codes in a row, even for the right code, for 15 minutes', async () => {
    const account = await enrolAuthenticatorApp('locked@example.org');
    const verify = (headers: Headers, code: string) => outcomeOf(auth.api.verifyTOTP({ body: { code }, headers }));

    // Nine wrong codes (a challenge takes 5 tries, then the password is asked again), then the right one: in.
    let challenge = await startSecondStep('locked@example.org');
    for (let attempt = 1; attempt <= 5; attempt += 1) expect(await verify(challenge, wrongCode(account))).toBe('UNAUTHORIZED:INVALID_CODE');
    expect(await verify(challenge, unusedCode(account))).toBe('BAD_REQUEST:TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE');
    challenge = await startSecondStep('locked@example.org');
    for (let attempt = 6; attempt <= 9; attempt += 1) expect(await verify(challenge, wrongCode(account))).toBe('UNAUTHORIZED:INVALID_CODE');
    expect((await twoFactorRow(account.userId))?.failedVerificationCount).toBe(9);
    const code = unusedCode(account);
    expect(await verify(challenge, code)).toBe('ok');
    account.spent.add(code);
    // Success resets the count: only failures in a row lock.
    expect(await twoFactorRow(account.userId)).toMatchObject({ failedVerificationCount: 0, lockedUntil: null });

    // Ten wrong codes in a row lock it; the eleventh try is refused even with the right code.
    for (const tries of [5, 5]) {
      challenge = await startSecondStep('locked@example.org');
      for (let attempt = 0; attempt < tries; attempt += 1)
        expect(await verify(challenge, wrongCode(account))).toBe('UNAUTHORIZED:INVALID_CODE');
    }
    const locked = await twoFactorRow(account.userId);
    expect(locked?.failedVerificationCount).toBe(10);
    const lockedForSeconds = ((locked?.lockedUntil?.getTime() ?? 0) - Date.now()) / 1000;
    expect(lockedForSeconds).toBeGreaterThan(15 * 60 - 30);
    expect(lockedForSeconds).toBeLessThanOrEqual(15 * 60);
    challenge = await startSecondStep('locked@example.org');
    expect(await verify(challenge, unusedCode(account))).toBe('TOO_MANY_REQUESTS:ACCOUNT_TEMPORARILY_LOCKED');
    // Backup codes are locked too (one budget across factors).
    expect(await outcomeOf(auth.api.verifyBackupCode({ body: { code: 'abcde-fghij' }, headers: challenge }))).toBe(
      'TOO_MANY_REQUESTS:ACCOUNT_TEMPORARILY_LOCKED',
    );

    // A second before the 15 minutes are up it is still locked; once they are, the right code signs in.
    const lockedUntil = locked?.lockedUntil as Date;
    await database.database
      .update(authTwoFactors)
      .set({ lockedUntil: new Date(lockedUntil.getTime() - (15 * 60 - 1) * 1000) })
      .where(eq(authTwoFactors.userId, account.userId));
    expect(await verify(challenge, unusedCode(account))).toBe('TOO_MANY_REQUESTS:ACCOUNT_TEMPORARILY_LOCKED');
    await database.database
      .update(authTwoFactors)
      .set({ lockedUntil: new Date(lockedUntil.getTime() - 15 * 60 * 1000) })
      .where(eq(authTwoFactors.userId, account.userId));
    expect(await verify(challenge, unusedCode(account))).toBe('ok');
    expect(await twoFactorRow(account.userId)).toMatchObject({ failedVerificationCount: 0, lockedUntil: null });
  });

  it('locks SMS second-factor sign-in after 10 wrong codes too', async () => {
    const { userId, cookie } = await signedInAccount('sms@example.org');
    await database.database.update(authUsers).set({ phoneNumber: phone, phoneNumberVerified: true }).where(eq(authUsers.id, userId));
    await auth.api.enableTwoFactor({ body: { password, method: 'otp' }, headers: new Headers({ cookie }) });
    expect(await twoFactorRow(userId)).toMatchObject({ verified: false, failedVerificationCount: 0 });
    // An account that turned SMS codes on before that record was made gets it at its next password sign-in.
    await database.database.delete(authTwoFactors).where(eq(authTwoFactors.userId, userId));

    const sendCode = async (challenge: Headers) => {
      // As if an hour went by between codes: the per-number SMS cap is tested on its own below.
      await database.execute('delete from rate_limit_counters');
      await auth.api.sendTwoFactorOTP({ body: {}, headers: challenge });
      return latestSmsCode(phone);
    };
    const verify = (challenge: Headers, code: string) => outcomeOf(auth.api.verifyTwoFactorOTP({ body: { code }, headers: challenge }));
    const wrong = (right: string) => (right === '000000' ? '111111' : '000000');

    // The SMS code signs in.
    let challenge = await startSecondStep('sms@example.org');
    expect(await verify(challenge, await sendCode(challenge))).toBe('ok');

    // Ten wrong codes in a row (each code takes 3 tries, then a new code is needed) lock it.
    let failures = 0;
    while (failures < 10) {
      challenge = await startSecondStep('sms@example.org');
      const right = await sendCode(challenge);
      for (let attempt = 0; attempt < 3 && failures < 10; attempt += 1, failures += 1) {
        expect(await verify(challenge, wrong(right))).toBe('UNAUTHORIZED:INVALID_CODE');
      }
    }
    expect((await twoFactorRow(userId))?.failedVerificationCount).toBe(10);
    challenge = await startSecondStep('sms@example.org');
    expect(await verify(challenge, await sendCode(challenge))).toBe('TOO_MANY_REQUESTS:ACCOUNT_TEMPORARILY_LOCKED');
    // The record accepts no authenticator-app code and no backup code: SMS stays the only second factor.
    expect(await outcomeOf(auth.api.verifyTOTP({ body: { code: '123456' }, headers: challenge }))).toBe('BAD_REQUEST:TOTP_NOT_ENABLED');
  });
  /** An account whose second step is an SMS code to `phone`. */
  async function smsTwoFactorAccount(email: string): Promise<string> {
    const { userId, cookie } = await signedInAccount(email);
    await database.database.update(authUsers).set({ phoneNumber: phone, phoneNumberVerified: true }).where(eq(authUsers.id, userId));
    await auth.api.enableTwoFactor({ body: { password, method: 'otp' }, headers: new Headers({ cookie }) });
    return userId;
  }

  async function smsCount(to: string): Promise<number> {
    const rows = await database.database
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.channel, 'sms'), eq(outboxMessages.recipient, to)));
    return rows.length;
  }

  it('caps two-factor SMS codes per number like phone sign-in: 1 a minute, 5 an hour', async () => {
    await smsTwoFactorAccount('capped@example.org');
    const send = async () => outcomeOf(auth.api.sendTwoFactorOTP({ body: {}, headers: await startSecondStep('capped@example.org') }));
    expect(await send()).toBe('ok');
    expect(await send()).toBe('TOO_MANY_REQUESTS:TOO_MANY_ATTEMPTS');
    for (let sent = 2; sent <= 5; sent += 1) {
      await letAMinutePass();
      expect(await send()).toBe('ok');
    }
    await letAMinutePass();
    expect(await send()).toBe('TOO_MANY_REQUESTS:TOO_MANY_ATTEMPTS');
    expect(await smsCount(phone)).toBe(5);
    // The second step has a budget of its own: someone who has just confirmed their number (a phone code) can
    // still sign in with it at once, and the number gets at most one code of each purpose a minute.
    expect(await outcomeOf(auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: await phoneFormHeaders() }))).toBe('ok');
    expect(await outcomeOf(auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: await phoneFormHeaders() }))).toBe(
      'TOO_MANY_REQUESTS:TOO_MANY_ATTEMPTS',
    );
  });

  it('stores two-factor SMS codes hashed, and the code still signs in', async () => {
    await smsTwoFactorAccount('hashed@example.org');
    const challenge = await startSecondStep('hashed@example.org');
    await auth.api.sendTwoFactorOTP({ body: {}, headers: challenge });
    const code = await latestSmsCode(phone);
    const stored = await database.database
      .select({ value: authVerifications.value })
      .from(authVerifications)
      .where(like(authVerifications.identifier, '2fa-otp-%'));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.value).not.toContain(code);
    expect(await outcomeOf(auth.api.verifyTwoFactorOTP({ body: { code }, headers: challenge }))).toBe('ok');
  });

  it('ends every other session when the password changes, even if the client asks to keep them', async () => {
    const first = await signedInAccount('change@example.org');
    const secondResponse = await auth.api.signInEmail({ body: { email: 'change@example.org', password }, asResponse: true });
    const second = new Headers({ cookie: cookiesOf(secondResponse) });
    expect(await auth.api.getSession({ headers: second })).not.toBeNull();

    const changed = await auth.api.changePassword({
      body: { currentPassword: password, newPassword: 'another long passphrase', revokeOtherSessions: false },
      headers: new Headers({ cookie: first.cookie }),
      asResponse: true,
    });
    expect(changed.status).toBe(200);
    expect(await auth.api.getSession({ headers: second })).toBeNull();
    // The browser that changed it stays signed in, on the fresh session better-auth gives it.
    expect((await auth.api.getSession({ headers: new Headers({ cookie: cookiesOf(changed, first.cookie) }) }))?.user.id).toBe(first.userId);
  });

  /** The reset token of the newest reset e-mail to `to` (sent without being awaited, so waited for). */
  async function latestResetToken(to: string, after = ''): Promise<string> {
    return vi.waitFor(async () => {
      const [message] = await database.database
        .select({ body: outboxMessages.body })
        .from(outboxMessages)
        .where(
          and(eq(outboxMessages.channel, 'email'), eq(outboxMessages.recipient, to), like(outboxMessages.body, '%choose a new password%')),
        )
        .orderBy(desc(outboxMessages.createdAt))
        .limit(1);
      const token = /\/reset-password\/([^?\s]+)/.exec(message?.body ?? '')?.[1];
      if (token === undefined || token === after) throw new Error(`no new reset e-mail to ${to}`);
      return token;
    });
  }

  it('resets a password once per link, ends every session, audits it, and caps requests per address', async () => {
    const account = await signedInAccount('reset@example.org');
    const headers = new Headers({ [clientAddressHeader]: '10.1.2.5' });
    expect(
      await auth.api.requestPasswordReset({ body: { email: 'reset@example.org', redirectTo: '/login/reset-password' }, headers }),
    ).toMatchObject({
      status: true,
    });
    const token = await latestResetToken('reset@example.org');

    expect(await outcomeOf(auth.api.resetPassword({ body: { token, newPassword: 'short' }, headers }))).toBe(
      'BAD_REQUEST:PASSWORD_TOO_SHORT',
    );
    expect(await outcomeOf(auth.api.resetPassword({ body: { token, newPassword: 'a brand new passphrase' }, headers }))).toBe('ok');
    // Single use, and every session signed in with the old password has ended.
    expect(await outcomeOf(auth.api.resetPassword({ body: { token, newPassword: 'yet another passphrase' }, headers }))).toBe(
      'BAD_REQUEST:INVALID_TOKEN',
    );
    expect(await auth.api.getSession({ headers: new Headers({ cookie: account.cookie }) })).toBeNull();
    expect(await outcomeOf(auth.api.signInEmail({ body: { email: 'reset@example.org', password } }))).toBe(
      'UNAUTHORIZED:INVALID_EMAIL_OR_PASSWORD',
    );
    expect(await outcomeOf(auth.api.signInEmail({ body: { email: 'reset@example.org', password: 'a brand new passphrase' } }))).toBe('ok');
    const audited = await database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome, target: auditLog.targetUserId })
      .from(auditLog)
      .where(like(auditLog.action, 'password.reset%'));
    expect(audited).toEqual(
      expect.arrayContaining([
        { action: 'password.reset', outcome: 'success', target: account.userId },
        { action: 'password.reset', outcome: 'failure', target: null },
      ]),
    );

    // An expired link is refused.
    await auth.api.requestPasswordReset({ body: { email: 'reset@example.org', redirectTo: '/login/reset-password' }, headers });
    const second = await latestResetToken('reset@example.org', token);
    await database.database
      .update(authVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authVerifications.identifier, `reset-password:${second}`));
    expect(await outcomeOf(auth.api.resetPassword({ body: { token: second, newPassword: 'yet another passphrase' }, headers }))).toBe(
      'BAD_REQUEST:INVALID_TOKEN',
    );

    // At most 3 requests per address an hour — for an unknown address exactly as for a known one.
    for (const email of ['reset@example.org', 'nobody@example.org']) {
      const outcomes: string[] = [];
      for (let attempt = email === 'reset@example.org' ? 2 : 0; attempt < 4; attempt += 1)
        outcomes.push(await outcomeOf(auth.api.requestPasswordReset({ body: { email, redirectTo: '/login/reset-password' }, headers })));
      expect(outcomes.at(-1)).toBe('TOO_MANY_REQUESTS:TOO_MANY_ATTEMPTS');
      expect(outcomes.slice(0, -1).every((outcome) => outcome === 'ok')).toBe(true);
    }
  });
});
