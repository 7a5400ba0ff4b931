import 'server-only';
import { createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { nextCookies } from 'better-auth/next-js';
import { genericOAuth, phoneNumber, twoFactor } from 'better-auth/plugins';
import { getDatabase } from '@/db/client';
import type { Database } from '@/db/client';
import { authAccounts, authRateLimits, authSessions, authTwoFactors, authUsers, authVerifications, userProfiles } from '@/db/schema';
import { clientAddressHeader } from '@/lib/client-address';
import { type Environment, getEnvironment, publicUrl, servedOverHttps } from '@/lib/env';
import { passwordResetLinkMinutes } from '@/lib/domain/password-reset';
import { isE164PhoneNumber } from '@/lib/phone-number';
import { recordAuditEvent } from './audit';
import { type RequestContext, requestContextOf } from './request-context';
import { loadInstanceSecret } from './instance-secret';
import { createMailer } from './mailer';
import {
  accountKeyOf,
  clearPasswordFailures,
  isCaptchaRequired,
  passwordStepUpPolicy,
  recordPasswordFailure,
  signInEmailOf,
} from './password-step-up';
import { consumeSlidingRateLimit } from './rate-limit';
import { endSessionIfExpired, sessionPolicy } from './session-policy';
import { spendToken } from './spent-tokens';
import { ensureTwoFactorRecord } from './two-factor-record';
import { createOutboxSmsSender, createTwilioSmsSender, type SmsSender } from './sms';

export { sessionPolicy } from './session-policy';

export const minimumPasswordLength = 12;

/** A password-reset link works once (better-auth consumes it when the password is set), for this long. */
export const passwordResetLinkSeconds = passwordResetLinkMinutes * 60;
/** Reset e-mails per address per hour: enough to retry a lost message, too few to flood someone's inbox. */
const passwordResetRequestsPerAddressHour = 3;

export function createSmsSender(database: Database, environment: Environment): SmsSender {
  return environment.TWILIO_ACCOUNT_SID !== undefined &&
    environment.TWILIO_AUTH_TOKEN !== undefined &&
    environment.TWILIO_FROM !== undefined
    ? createTwilioSmsSender({
        accountSid: environment.TWILIO_ACCOUNT_SID,
        authToken: environment.TWILIO_AUTH_TOKEN,
        from: environment.TWILIO_FROM,
        apiUrl: environment.TWILIO_API_URL,
      })
    : createOutboxSmsSender({ database });
}

function clientAddressOf(headers: Headers | undefined): string {
  return headers?.get(clientAddressHeader) ?? 'unknown';
}

/** The audit log's request id and client address for a better-auth call (headers absent: a server-side call). */
function auditContextOf(headers: Headers | undefined): RequestContext {
  return headers === undefined ? { requestId: crypto.randomUUID(), clientAddress: 'unknown' } : requestContextOf(headers);
}

/**
 * SMS codes to one number: 1 a minute and 5 an hour (sliding windows) for each purpose — phone sign-in and
 * confirmation ('phone'), or the second step of a sign-in ('two-factor') — so someone who has just confirmed
 * their number can sign in with it at once, and no number gets more than 2 a minute or 10 an hour. Phone
 * sign-in, which anyone can ask for, is also limited to 10 an hour per client.
 */
async function consumeSmsAllowance(options: {
  database: Database;
  purpose: 'phone' | 'two-factor';
  phone: string;
  clientAddress: string;
  perClient: boolean;
  audit: RequestContext;
}) {
  const limits = [
    {
      scope: options.purpose === 'phone' ? 'sms-phone-minute' : 'sms-2fa-phone-minute',
      subject: options.phone,
      limit: 1,
      windowSeconds: 60,
    },
    { scope: options.purpose === 'phone' ? 'sms-phone-hour' : 'sms-2fa-phone-hour', subject: options.phone, limit: 5, windowSeconds: 3600 },
    ...(options.perClient ? [{ scope: 'sms-client-hour', subject: options.clientAddress, limit: 10, windowSeconds: 3600 }] : []),
  ];
  for (const limit of limits) {
    const result = await consumeSlidingRateLimit({ database: options.database, ...limit });
    if (!result.allowed) {
      await recordAuditEvent(options.database, {
        action: 'sms-code.send',
        outcome: 'denied',
        ...options.audit,
        details: { reason: limit.scope },
      });
      throw new APIError('TOO_MANY_REQUESTS', { message: 'TOO_MANY_ATTEMPTS', code: 'TOO_MANY_ATTEMPTS' });
    }
  }
}

type AuthEndpointContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The phone number a two-factor code would go to: the signed-in user's, or, in the second step of a
 * sign-in, that of the user the two-factor cookie names (found as better-auth's plugin finds it).
 */
async function twoFactorPhoneOf(context: AuthEndpointContext, sessionToken: string | null): Promise<string | null> {
  const adapter = context.context.internalAdapter;
  let userId: string | null = null;
  if (sessionToken) userId = (await adapter.findSession(sessionToken))?.user.id ?? null;
  if (userId === null) {
    const challenge = await context.getSignedCookie(context.context.createAuthCookie('two_factor').name, context.context.secret);
    if (challenge) userId = (await adapter.findVerificationValue(challenge))?.value ?? null;
  }
  if (userId === null) return null;
  const user = (await adapter.findUserById(userId)) as { phoneNumber?: string | null } | null;
  return user?.phoneNumber ?? null;
}

/**
 * Phone sign-in codes are stored as a keyed hash: better-auth's phone-number plugin stores the code as sent
 * and compares it with what is typed, so the stored value (databaseHooks) and the typed code (hooks.before)
 * both become this digest. The "h$" prefix keeps a digest from ever looking like a fresh code.
 */
function phoneCodeDigest(secret: string, code: string): string {
  return `h$${createHmac('sha256', secret).update(code).digest('base64url')}`;
}
const phoneCodeIdentifier = /^phone-number-(otp|reset)-/;

/** Paths of better-auth whose outcome the audit log records. */
const auditedPaths: Record<string, string> = {
  '/sign-in/email': 'sign-in.password',
  '/sign-up/email': 'sign-up.password',
  '/phone-number/verify': 'sign-in.phone',
  '/two-factor/verify-totp': 'two-factor.totp',
  '/two-factor/verify-otp': 'two-factor.sms',
  '/two-factor/verify-backup-code': 'two-factor.backup-code',
  '/two-factor/enable': 'two-factor.enable',
  '/two-factor/disable': 'two-factor.disable',
  '/change-password': 'password.change',
  '/revoke-other-sessions': 'sessions.revoke-others',
  '/request-password-reset': 'password.reset-request',
  // A successful reset is recorded by onPasswordReset, which knows the account; here only refusals.
  '/reset-password': 'password.reset',
};

function buildAuth(options: { database: Database; environment: Environment; secret: string }) {
  const { database, environment } = options;
  const sms = createSmsSender(database, environment);
  const mailer = createMailer({ database, smtpUrl: environment.SMTP_URL, from: environment.MAIL_FROM });
  const productName = environment.PRODUCT_NAME;
  const oidcConfigured =
    environment.OIDC_ISSUER !== undefined && environment.OIDC_CLIENT_ID !== undefined && environment.OIDC_CLIENT_SECRET !== undefined;

  return betterAuth({
    appName: productName,
    baseURL: publicUrl(environment),
    basePath: '/api/auth',
    secret: options.secret,
    trustedOrigins: [publicUrl(environment)],
    database: drizzleAdapter(database, {
      provider: 'pg',
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        twoFactor: authTwoFactors,
        rateLimit: authRateLimits,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: minimumPasswordLength,
      maxPasswordLength: 256,
      autoSignIn: true,
      // With verification required, signing up with a registered address answers exactly like a new one,
      // so the form never reveals who has an account; the owner is told instead.
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        await mailer.send({
          to: user.email,
          subject: `Someone tried to create a ${productName} account with your e-mail address`,
          text: `An account already exists for this address. If this was you, sign in instead (or reset your password). If it was not, you can ignore this message.`,
        });
      },
      resetPasswordTokenExpiresIn: passwordResetLinkSeconds,
      // Whoever knew the old password (or held a session with it) must not stay signed in.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        // Accounts made by phone sign-in carry a placeholder address that no one reads.
        if (user.email.endsWith('.invalid')) return;
        // Not awaited: an address with an account must answer as fast as one without (better-auth only
        // looks the address up for those), so the answer's timing does not say who has an account.
        void mailer
          .send({
            to: user.email,
            subject: `Reset your ${productName} password`,
            text: `Someone (we hope you) asked to reset the password of your ${productName} account.\n\nOpen this link to choose a new password:\n\n${url}\n\nThe link works once, for ${passwordResetLinkMinutes} minutes. Choosing a new password signs you out everywhere. If you did not ask for this, ignore this message: your password stays as it is.`,
          })
          .catch((error: unknown) =>
            // The error's name only: a mail error's message can carry the address.
            console.error('password reset e-mail could not be sent:', error instanceof Error ? error.name : 'unknown error'),
          );
      },
      onPasswordReset: async ({ user }, request) => {
        await recordAuditEvent(database, {
          action: 'password.reset',
          outcome: 'success',
          actorUserId: user.id,
          targetUserId: user.id,
          ...auditContextOf(request?.headers),
          details: {},
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: `Confirm your e-mail address for ${productName}`,
          text: `Open this link to confirm your address and sign in:\n\n${url}\n\nThe link works for 24 hours.`,
        });
      },
    },
    session: {
      expiresIn: sessionPolicy.patientInactivitySeconds,
      updateAge: sessionPolicy.activityResolutionSeconds,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/*': { window: 60, max: 10 },
        '/sign-up/*': { window: 60, max: 5 },
        '/phone-number/*': { window: 60, max: 10 },
        '/two-factor/*': { window: 60, max: 20 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/get-session': false,
      },
    },
    advanced: {
      // Set by our server entry from the socket (and TRUSTED_PROXIES); any client-sent value was removed.
      ipAddress: { ipAddressHeaders: [clientAddressHeader] },
      useSecureCookies: servedOverHttps(environment),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      database: { generateId: () => crypto.randomUUID() },
    },
    user: {
      // Mass assignment: nothing about roles can be set through sign-up or user updates.
      additionalFields: {},
    },
    databaseHooks: {
      verification: {
        create: {
          before: async (verification) => {
            const fresh = /^(\d{4,12}):0$/.exec(verification.value);
            if (!phoneCodeIdentifier.test(verification.identifier) || fresh === null) return;
            return { data: { ...verification, value: `${phoneCodeDigest(options.secret, fresh[1] as string)}:0` } };
          },
        },
      },
      user: {
        create: {
          // Every account gets its profile document, role patient (DESIGN §1).
          after: async (user) => {
            await database
              .insert(userProfiles)
              .values({ uid: user.id, role: 'patient', updatedUnix: Date.now(), displayName: user.name || null })
              .onConflictDoNothing();
          },
        },
      },
    },
    // OAuth failures (a tampered, replayed or foreign callback) come back to /login?error=… in words.
    onAPIError: { errorURL: '/login' },
    hooks: {
      before: createAuthMiddleware(async (context) => {
        // The session policy (session-policy.ts) first: better-auth's session lookup refreshes a session it
        // finds, so an idle staff session must be ended before any endpoint looks at it.
        const sessionToken = await context.getSignedCookie(context.context.authCookies.sessionToken.name, context.context.secret);
        if (sessionToken) await endSessionIfExpired({ database, sessionToken, sessions: context.context.internalAdapter });
        if (context.path === '/sign-in/email') {
          // Per-account step-up (password-step-up.ts): decided before the password is looked at, on a key
          // that exists for unknown addresses too, so the answer never says whether an account exists.
          const email = signInEmailOf(context.body);
          if (email !== null && (await isCaptchaRequired({ database, accountKey: accountKeyOf({ secret: options.secret, email }) }))) {
            const { verifyCaptchaPayload } = await import('./captcha');
            const captcha = await verifyCaptchaPayload({
              database,
              secret: options.secret,
              payload: context.headers?.get('x-altcha') ?? undefined,
            });
            if (!captcha.verified) {
              throw new APIError('FORBIDDEN', { message: 'CAPTCHA_REQUIRED', code: 'CAPTCHA_REQUIRED' });
            }
          }
        }
        if (context.path === '/request-password-reset') {
          // Per address, on the same keyed digest as the password step-up, for unknown addresses too (the
          // answer says nothing about whether an account exists).
          const email = signInEmailOf(context.body);
          if (email !== null) {
            const allowance = await consumeSlidingRateLimit({
              database,
              scope: 'password-reset-address-hour',
              subject: accountKeyOf({ secret: options.secret, email }),
              limit: passwordResetRequestsPerAddressHour,
              windowSeconds: 3600,
            });
            if (!allowance.allowed) throw new APIError('TOO_MANY_REQUESTS', { message: 'TOO_MANY_ATTEMPTS', code: 'TOO_MANY_ATTEMPTS' });
          }
        }
        if (context.path === '/phone-number/send-otp') {
          const phone = String((context.body as { phoneNumber?: unknown } | undefined)?.phoneNumber ?? '');
          if (!isE164PhoneNumber(phone)) {
            throw new APIError('BAD_REQUEST', { message: 'INVALID_PHONE_NUMBER', code: 'INVALID_PHONE_NUMBER' });
          }
          const { verifyCaptchaPayload } = await import('./captcha');
          const captcha = await verifyCaptchaPayload({
            database,
            secret: options.secret,
            payload: context.headers?.get('x-altcha') ?? undefined,
          });
          if (!captcha.verified) {
            throw new APIError('BAD_REQUEST', { message: 'CAPTCHA_FAILED', code: 'CAPTCHA_FAILED' });
          }
          await consumeSmsAllowance({
            database,
            purpose: 'phone',
            phone,
            clientAddress: clientAddressOf(context.headers),
            perClient: true,
            audit: auditContextOf(context.headers),
          });
        }
        if (context.path === '/phone-number/verify' || context.path === '/phone-number/reset-password') {
          const field = context.path === '/phone-number/verify' ? 'code' : 'otp';
          const body = (context.body ?? {}) as Record<string, unknown>;
          const typed = body[field];
          if (typeof typed === 'string') return { context: { body: { ...body, [field]: phoneCodeDigest(options.secret, typed) } } };
        }
        if (context.path === '/change-password') {
          // A changed password ends every other session, whatever the client asked: whoever knew the old
          // password must not stay signed in with it.
          return { context: { body: { ...(context.body as Record<string, unknown>), revokeOtherSessions: true } } };
        }
        if (context.path === '/two-factor/send-otp') {
          // The same per-number cap as phone sign-in, counted for the second step on its own.
          const phone = await twoFactorPhoneOf(context, sessionToken || null);
          if (phone)
            await consumeSmsAllowance({
              database,
              purpose: 'two-factor',
              phone,
              clientAddress: clientAddressOf(context.headers),
              perClient: false,
              audit: auditContextOf(context.headers),
            });
        }
      }),
      after: createAuthMiddleware(async (context) => {
        // Each authenticator code is accepted once (better-auth checks the ±1 step window, not reuse): a
        // replayed code loses the session it just created. A code lives at most 3 steps of 30 s.
        if (context.path === '/two-factor/verify-totp' && context.context.newSession) {
          const code = String((context.body as { code?: unknown } | undefined)?.code ?? '');
          const fresh = await spendToken({
            database,
            scope: 'totp',
            token: `${context.context.newSession.user.id}:${code}`,
            validForSeconds: 120,
          });
          if (!fresh) {
            await context.context.internalAdapter.deleteSession(context.context.newSession.session.token);
            await recordAuditEvent(database, {
              action: 'two-factor.totp',
              outcome: 'failure',
              actorUserId: context.context.newSession.user.id,
              ...auditContextOf(context.headers),
              details: { errorCode: 'CODE_ALREADY_USED' },
            });
            throw new APIError('UNAUTHORIZED', { message: 'CODE_ALREADY_USED', code: 'CODE_ALREADY_USED' });
          }
        }
        const returned = context.context.returned;
        const succeeded = !(returned instanceof APIError) && !(returned instanceof Response && !returned.ok);
        if (context.path === '/sign-in/email') {
          const email = signInEmailOf(context.body);
          const returnedCode = returned instanceof APIError ? (returned.body as { code?: string } | undefined)?.code : undefined;
          if (email !== null && (succeeded || returnedCode === 'INVALID_EMAIL_OR_PASSWORD')) {
            const accountKey = accountKeyOf({ secret: options.secret, email });
            if (succeeded) {
              await clearPasswordFailures({ database, accountKey });
            } else if ((await recordPasswordFailure({ database, accountKey })).stepUpStarted) {
              // The key, not the address: the audit log holds no patient-identifying data.
              await recordAuditEvent(database, {
                action: 'sign-in.password.step-up',
                outcome: 'denied',
                ...auditContextOf(context.headers),
                details: { accountKey, failures: passwordStepUpPolicy.failures, windowSeconds: passwordStepUpPolicy.windowSeconds },
              });
            }
          }
        }
        // SMS-only two-factor users need the record better-auth counts failed codes on (two-factor-record.ts):
        // made when SMS codes are turned on, and at a password sign-in for accounts enrolled before that.
        if (succeeded && (context.path === '/two-factor/enable' || context.path === '/sign-in/email')) {
          const sessionUserId = context.context.session?.user.id;
          const email = signInEmailOf(context.body);
          const user =
            context.path === '/two-factor/enable'
              ? sessionUserId === undefined
                ? null
                : { id: sessionUserId }
              : email === null
                ? null
                : { email };
          if (user !== null) await ensureTwoFactorRecord({ database, user, secretConfig: context.context.secretConfig });
        }
        const action = auditedPaths[context.path];
        if (action === undefined) return;
        const failed = !succeeded;
        if (context.path === '/reset-password' && !failed) return;
        const userId = context.context.newSession?.user.id ?? context.context.session?.user.id ?? null;
        const errorCode =
          returned instanceof APIError ? String((returned.body as { code?: string } | undefined)?.code ?? returned.status) : undefined;
        await recordAuditEvent(database, {
          action,
          outcome: failed ? 'failure' : 'success',
          actorUserId: userId,
          targetUserId: userId,
          ...auditContextOf(context.headers),
          details: errorCode === undefined ? {} : { errorCode },
        });
      }),
    },
    plugins: [
      phoneNumber({
        otpLength: 6,
        expiresIn: 5 * 60,
        allowedAttempts: 3,
        phoneNumberValidator: (value) => isE164PhoneNumber(value),
        sendOTP: async ({ phoneNumber: to, code }, endpoint) => {
          await sms.send({ to, body: `${code} is your ${productName} sign-in code. It expires in 5 minutes.` });
          await recordAuditEvent(database, {
            action: 'sms-code.send',
            outcome: 'success',
            ...auditContextOf(endpoint?.headers),
            details: { channel: sms.channel },
          });
        },
        // Signing in with an unknown number creates the account, so the answer never reveals whether it existed.
        signUpOnVerification: {
          getTempEmail: (phone) => `${phone.replace(/\D/g, '')}@phone.medaptive.invalid`,
          getTempName: (phone) => phone,
        },
      }),
      twoFactor({
        issuer: productName,
        totpOptions: { digits: 6, period: 30 },
        otpOptions: {
          // Stored as a hash in auth_verifications, never the code itself.
          storeOTP: 'hashed',
          digits: 6,
          period: 5,
          allowedAttempts: 3,
          sendOTP: async ({ user, otp }, endpoint) => {
            const to = (user as { phoneNumber?: string | null }).phoneNumber;
            if (!to) throw new APIError('BAD_REQUEST', { message: 'NO_PHONE_NUMBER', code: 'NO_PHONE_NUMBER' });
            await sms.send({ to, body: `${otp} is your ${productName} verification code. It expires in 5 minutes.` });
            await recordAuditEvent(database, {
              action: 'sms-code.send',
              outcome: 'success',
              targetUserId: user.id,
              ...auditContextOf(endpoint?.headers),
              details: { purpose: 'two-factor' },
            });
          },
        },
        backupCodeOptions: { amount: 10, length: 10 },
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
      }),
      ...(oidcConfigured
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'oidc',
                  discoveryUrl: `${environment.OIDC_ISSUER?.replace(/\/$/, '')}/.well-known/openid-configuration`,
                  clientId: environment.OIDC_CLIENT_ID as string,
                  clientSecret: environment.OIDC_CLIENT_SECRET as string,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof buildAuth>;

const authKey = Symbol.for('medaptive.auth');
type GlobalWithAuth = typeof globalThis & { [authKey]?: Promise<Auth> };

/** The process's better-auth instance over the application database. */
export function getAuth(): Promise<Auth> {
  const holder = globalThis as GlobalWithAuth;
  holder[authKey] ??= (async () => {
    const environment = getEnvironment();
    const database = getDatabase();
    const secret = await loadInstanceSecret(database, environment.AUTH_SECRET);
    return buildAuth({ database, environment, secret });
  })();
  return holder[authKey];
}

/** For tests: an instance over a given database. */
export async function createAuthForDatabase(database: Database, environment: Environment): Promise<Auth> {
  return buildAuth({ database, environment, secret: await loadInstanceSecret(database, environment.AUTH_SECRET) });
}
