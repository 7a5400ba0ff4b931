import path from 'node:path';
import { z } from '@/lib/zod';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
/** The same, as an address to listen on. */
const loopbackListenHosts = new Set(['localhost', '127.0.0.1', '::1']);

/** Whether a URL names this machine only (URL keeps IPv6 hosts in brackets and normalises 127.1 and LOCALHOST). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return loopbackHosts.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Defaults to every interface (0.0.0.0), or to 127.0.0.1 when a production build serves DEV_OUTBOX. */
    HOST: z.string().trim().min(1).optional(),
    DATA_DIR: z.string().trim().min(1).default('./.data'),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
        .optional(),
    ),
    PRODUCT_NAME: z.string().trim().min(1).max(60).default('Medaptive'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
        .optional(),
    ),
    MAIL_FROM: z.string().trim().min(3).default('Medaptive <no-reply@medaptive.localhost>'),
    CONTACT_EMAIL_TO: z.email('must be an e-mail address').default('contact@medaptive.localhost'),
    CONTACT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(5),
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
    /** The address people use to reach the app; OAuth callbacks and the origin check use it. */
    PUBLIC_URL: optionalText.pipe(z.url('must be a URL such as https://medaptive.example.org').optional()),
    /** Signs sessions and encrypts two-factor secrets; generated once and kept in the database when unset. */
    AUTH_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    SEED_DEMO: booleanFlag,
    /** Serves /dev/outbox, /dev/phone and /api/dev/* (always on in development; for tests of a production build on loopback). */
    DEV_OUTBOX: booleanFlag,
    DEMO_PASSWORD: z.string().min(12, 'must be at least 12 characters').default('Medaptive-demo-1'),
    OIDC_ISSUER: optionalText.pipe(z.url('must be the issuer URL of an OpenID provider').optional()),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OIDC_NAME: z.string().trim().min(1).default('your organisation'),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_FROM: optionalText,
    /** Where Twilio's API lives; tests point it at a local server. */
    TWILIO_API_URL: z.url().default('https://api.twilio.com'),
    /** Signs WhatsApp Cloud API webhooks (X-Hub-Signature-256); without it /api/webhooks/whatsapp answers 503. */
    WHATSAPP_APP_SECRET: optionalText,
    /** The token Meta sends back when subscribing the webhook (hub.verify_token). */
    WHATSAPP_VERIFY_TOKEN: optionalText,
    /** Sends WhatsApp messages (Cloud API, Bearer token); without it and WHATSAPP_PHONE_NUMBER_ID the local channel is used. */
    WHATSAPP_ACCESS_TOKEN: optionalText,
    /** The business phone number's id in the Cloud API (the path of POST /{version}/{id}/messages). */
    WHATSAPP_PHONE_NUMBER_ID: optionalText,
    /** Where the Graph API lives; tests point it at a local server. */
    WHATSAPP_API_URL: z.url().default('https://graph.facebook.com'),
  })
  .superRefine((environment, context) => {
    const oidc = [environment.OIDC_ISSUER, environment.OIDC_CLIENT_ID, environment.OIDC_CLIENT_SECRET];
    if (oidc.some((value) => value !== undefined) && oidc.some((value) => value === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together',
      });
    }
    const twilio = [environment.TWILIO_ACCOUNT_SID, environment.TWILIO_AUTH_TOKEN, environment.TWILIO_FROM];
    if (twilio.some((value) => value !== undefined) && twilio.some((value) => value === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['TWILIO_ACCOUNT_SID'],
        message: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together',
      });
    }
    // The outbox and the dev phone answer anyone, unauthenticated (every sign-in code sent, a verified number for
    // any account): a production build serves them only to a machine that reaches itself on loopback (the
    // end-to-end servers, a local walkthrough), never at an address others use.
    if (
      environment.NODE_ENV === 'production' &&
      environment.DEV_OUTBOX &&
      !isLoopbackUrl(environment.PUBLIC_URL ?? `http://localhost:${environment.PORT}`)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message:
          'must not be true in production unless PUBLIC_URL is a loopback address (localhost, 127.0.0.1, ::1): it serves every e-mail and SMS code to anyone, unauthenticated',
      });
    }
    // Nor listen where others reach it by another name (the machine's network address): on loopback only.
    if (
      environment.NODE_ENV === 'production' &&
      environment.DEV_OUTBOX &&
      environment.HOST !== undefined &&
      !loopbackListenHosts.has(environment.HOST.toLowerCase())
    ) {
      context.addIssue({
        code: 'custom',
        path: ['HOST'],
        message:
          'must be a loopback address (127.0.0.1, ::1 or localhost) while DEV_OUTBOX is true in production: the outbox and phone would answer anyone who reaches this address',
      });
    }
    const whatsApp = [environment.WHATSAPP_ACCESS_TOKEN, environment.WHATSAPP_PHONE_NUMBER_ID];
    if (whatsApp.some((value) => value !== undefined) && whatsApp.some((value) => value === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['WHATSAPP_ACCESS_TOKEN'],
        message: 'WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID go together',
      });
    }
  })
  .transform((environment) => ({
    ...environment,
    HOST: environment.HOST ?? (environment.NODE_ENV === 'production' && environment.DEV_OUTBOX ? '127.0.0.1' : '0.0.0.0'),
  }));

export type Environment = z.infer<typeof environmentSchema>;

export class EnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvironmentError';
  }
}

export function parseEnvironment(source: Record<string, string | undefined>): Environment {
  const result = environmentSchema.safeParse(source);
  if (!result.success) {
    throw new EnvironmentError(result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
  }
  return result.data;
}

let cachedEnvironment: Environment | undefined;

/** The validated environment, parsed once per process. */
export function getEnvironment(): Environment {
  cachedEnvironment ??= parseEnvironment(process.env);
  return cachedEnvironment;
}

export function publicUrl(environment: Environment): string {
  return (environment.PUBLIC_URL ?? `http://localhost:${environment.PORT}`).replace(/\/$/, '');
}

/**
 * Whether people reach the app over HTTPS (PUBLIC_URL says so; TLS ends at a proxy in front of us): cookies
 * are then Secure and responses carry Strict-Transport-Security. Never in development, served on localhost.
 */
export function servedOverHttps(environment: Environment): boolean {
  return environment.NODE_ENV === 'production' && publicUrl(environment).startsWith('https://');
}

export function resolveDataDirectory(environment: Environment): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), environment.DATA_DIR);
}
