import { describe, expect, it } from 'vitest';
import { EnvironmentError, parseEnvironment } from '@/lib/env';
import { createChannelAdapters, describeChannels } from './create-channel-adapters';

const twilio = { TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+15005550006' };
const whatsApp = { WHATSAPP_ACCESS_TOKEN: 'EAAG-token', WHATSAPP_PHONE_NUMBER_ID: '100000000000001' };

describe('channel configuration', () => {
  it('uses the local channel without credentials, and says so', async () => {
    const environment = parseEnvironment({});
    expect(environment.WHATSAPP_API_URL).toBe('https://graph.facebook.com');
    const adapters = createChannelAdapters(environment);
    expect([adapters.whatsapp.provider, adapters.sms.provider]).toEqual(['local', 'local']);
    expect(describeChannels(environment)).toBe('Messaging: WhatsApp via local (/dev/phone); SMS via local (/dev/phone)');
    await expect(
      adapters.whatsapp.send({ to: '+447700900123', channel: 'whatsapp', content: { kind: 'text', body: 'x' } }),
    ).resolves.toMatchObject({
      providerMessageId: expect.stringMatching(/^wamid\.local\.[0-9a-f-]{36}$/),
    });
    await expect(adapters.sms.send({ to: '+447700900123', channel: 'sms', body: 'x' })).resolves.toMatchObject({
      providerMessageId: expect.stringMatching(/^SMlocal[0-9a-f]{32}$/),
    });
  });

  it('uses the providers whose credentials are set', () => {
    const environment = parseEnvironment({ ...twilio, ...whatsApp });
    const adapters = createChannelAdapters(environment);
    expect([adapters.whatsapp.provider, adapters.sms.provider]).toEqual(['whatsapp-cloud-api', 'twilio']);
    expect(describeChannels(environment)).toBe('Messaging: WhatsApp via WhatsApp Cloud API; SMS via Twilio');
    expect(describeChannels(environment)).not.toContain('EAAG');
  });

  it('refuses half a WhatsApp configuration', () => {
    expect(() => parseEnvironment({ WHATSAPP_ACCESS_TOKEN: 'EAAG-token' })).toThrow(EnvironmentError);
    expect(() => parseEnvironment({ WHATSAPP_PHONE_NUMBER_ID: '1' })).toThrow(
      'WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID go together',
    );
    expect(() => parseEnvironment({ WHATSAPP_API_URL: 'not a url' })).toThrow('WHATSAPP_API_URL');
  });
});
