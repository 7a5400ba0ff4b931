import 'server-only';
import { createHmac } from 'node:crypto';
import type { Database } from '@/db/client';
import { outboxIsAvailable } from '@/features/outbox';
import { type Environment, publicUrl } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { loadInstanceSecret } from '@/lib/server/instance-secret';

export type WhatsAppWebhookSettings = { appSecret: string; verifyToken: string; local: boolean };
export type TwilioWebhookSettings = { authToken: string; publicUrl: string; local: boolean };

type LocalOptions = {
  /**
   * The installation's auth secret (AUTH_SECRET or the generated one). Only where the local channel is served
   * (the /dev/outbox rule) and the provider's own secrets are unset, the webhook secrets are derived from it,
   * so /dev/phone can sign like the providers and the webhooks check signatures as in production.
   */
  instanceSecret?: string;
};

/** A secret of the local channel: HMAC of the instance secret with a label, never the instance secret itself. */
export function localWebhookSecret(
  instanceSecret: string,
  label: 'whatsapp-app-secret' | 'whatsapp-verify-token' | 'twilio-auth-token',
): string {
  return createHmac('sha256', instanceSecret).update(`medaptive-local-webhook:${label}`).digest('base64url');
}

/**
 * WhatsApp's webhook secrets; with both unset, the local channel's derived ones (see LocalOptions); else null
 * (the endpoint then refuses with 503).
 */
export function whatsAppWebhookSettingsOf(environment: Environment, options: LocalOptions = {}): WhatsAppWebhookSettings | null {
  const { WHATSAPP_APP_SECRET: appSecret, WHATSAPP_VERIFY_TOKEN: verifyToken } = environment;
  if (appSecret !== undefined && verifyToken !== undefined) return { appSecret, verifyToken, local: false };
  if (appSecret === undefined && verifyToken === undefined && options.instanceSecret !== undefined && outboxIsAvailable(environment)) {
    return {
      appSecret: localWebhookSecret(options.instanceSecret, 'whatsapp-app-secret'),
      verifyToken: localWebhookSecret(options.instanceSecret, 'whatsapp-verify-token'),
      local: true,
    };
  }
  return null;
}

/**
 * Twilio's auth token and the public address Twilio calls; with TWILIO_AUTH_TOKEN unset, the local channel's
 * derived token (see LocalOptions) and this server's address; else null. Twilio signs the URL configured at
 * Twilio, so without PUBLIC_URL a real token's signatures could not be checked (the endpoints answer 503).
 */
export function twilioWebhookSettingsOf(environment: Environment, options: LocalOptions = {}): TwilioWebhookSettings | null {
  if (environment.TWILIO_AUTH_TOKEN !== undefined) {
    if (environment.PUBLIC_URL === undefined) return null;
    return { authToken: environment.TWILIO_AUTH_TOKEN, publicUrl: publicUrl(environment), local: false };
  }
  if (options.instanceSecret === undefined || !outboxIsAvailable(environment)) return null;
  return { authToken: localWebhookSecret(options.instanceSecret, 'twilio-auth-token'), publicUrl: publicUrl(environment), local: true };
}

/** The settings the webhook routes use: the instance secret is read only when the local channel may need it. */
export async function loadWhatsAppWebhookSettings(options: {
  database: Database;
  environment: Environment;
}): Promise<WhatsAppWebhookSettings | null> {
  const { database, environment } = options;
  const configured = whatsAppWebhookSettingsOf(environment);
  if (configured !== null || !outboxIsAvailable(environment)) return configured;
  return whatsAppWebhookSettingsOf(environment, { instanceSecret: await loadInstanceSecret(database, environment.AUTH_SECRET) });
}

export async function loadTwilioWebhookSettings(options: {
  database: Database;
  environment: Environment;
}): Promise<TwilioWebhookSettings | null> {
  const { database, environment } = options;
  const configured = twilioWebhookSettingsOf(environment);
  if (configured !== null || !outboxIsAvailable(environment)) return configured;
  return twilioWebhookSettingsOf(environment, { instanceSecret: await loadInstanceSecret(database, environment.AUTH_SECRET) });
}

export function webhookNotConfigured(variables: string): AppError {
  return new AppError('unavailable', `This webhook is not configured on this server (${variables}).`);
}
