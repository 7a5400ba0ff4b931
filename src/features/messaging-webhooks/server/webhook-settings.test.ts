import { describe, expect, it } from 'vitest';
import { parseEnvironment } from '@/lib/env';
import { localWebhookSecret, twilioWebhookSettingsOf, whatsAppWebhookSettingsOf } from './webhook-settings';

const instanceSecret = 'instance-secret-for-tests-0123456789abcdef';

describe('webhook settings', () => {
  it('uses the providers’ secrets when they are set, local channel or not', () => {
    const environment = parseEnvironment({
      NODE_ENV: 'development',
      WHATSAPP_APP_SECRET: 'app',
      WHATSAPP_VERIFY_TOKEN: 'verify',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15550001111',
      PUBLIC_URL: 'https://medaptive.example.org/',
    });
    expect(whatsAppWebhookSettingsOf(environment, { instanceSecret })).toEqual({ appSecret: 'app', verifyToken: 'verify', local: false });
    expect(twilioWebhookSettingsOf(environment, { instanceSecret })).toEqual({
      authToken: 'token',
      publicUrl: 'https://medaptive.example.org',
      local: false,
    });
  });

  it('derives local secrets only where the local channel is served and the providers’ are unset', () => {
    const local = parseEnvironment({ NODE_ENV: 'production', DEV_OUTBOX: 'true', PORT: '3440' });
    const whatsApp = whatsAppWebhookSettingsOf(local, { instanceSecret });
    expect(whatsApp).toEqual({
      appSecret: localWebhookSecret(instanceSecret, 'whatsapp-app-secret'),
      verifyToken: localWebhookSecret(instanceSecret, 'whatsapp-verify-token'),
      local: true,
    });
    // Derived, distinct per use, and never the instance secret itself.
    expect(new Set([whatsApp?.appSecret, whatsApp?.verifyToken, instanceSecret]).size).toBe(3);
    expect(twilioWebhookSettingsOf(local, { instanceSecret })).toEqual({
      authToken: localWebhookSecret(instanceSecret, 'twilio-auth-token'),
      publicUrl: 'http://localhost:3440',
      local: true,
    });
    // Without the instance secret nothing is derived.
    expect(whatsAppWebhookSettingsOf(local)).toBeNull();

    const production = parseEnvironment({ NODE_ENV: 'production' });
    expect(whatsAppWebhookSettingsOf(production, { instanceSecret })).toBeNull();
    expect(twilioWebhookSettingsOf(production, { instanceSecret })).toBeNull();
    // Half a WhatsApp configuration is a mistake to report (503), not a reason to fall back to local secrets.
    expect(
      whatsAppWebhookSettingsOf(parseEnvironment({ NODE_ENV: 'development', WHATSAPP_APP_SECRET: 'app' }), { instanceSecret }),
    ).toBeNull();
  });
});
