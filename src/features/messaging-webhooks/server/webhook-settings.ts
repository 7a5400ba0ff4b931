import 'server-only';
import { type Environment, publicUrl } from '@/lib/env';
import { AppError } from '@/lib/errors';

export type WhatsAppWebhookSettings = { appSecret: string; verifyToken: string };
export type TwilioWebhookSettings = { authToken: string; publicUrl: string };

/** WhatsApp's webhook secrets, or null when either is unset (the endpoint then refuses with 503). */
export function whatsAppWebhookSettingsOf(environment: Environment): WhatsAppWebhookSettings | null {
  const { WHATSAPP_APP_SECRET: appSecret, WHATSAPP_VERIFY_TOKEN: verifyToken } = environment;
  return appSecret === undefined || verifyToken === undefined ? null : { appSecret, verifyToken };
}

/**
 * Twilio's auth token and the public address Twilio calls, or null when either is unset: Twilio signs the
 * URL configured at Twilio, so without PUBLIC_URL no signature could be checked (the endpoints answer 503).
 */
export function twilioWebhookSettingsOf(environment: Environment): TwilioWebhookSettings | null {
  if (environment.TWILIO_AUTH_TOKEN === undefined || environment.PUBLIC_URL === undefined) return null;
  return { authToken: environment.TWILIO_AUTH_TOKEN, publicUrl: publicUrl(environment) };
}

export function webhookNotConfigured(variables: string): AppError {
  return new AppError('unavailable', `This webhook is not configured on this server (${variables}).`);
}
