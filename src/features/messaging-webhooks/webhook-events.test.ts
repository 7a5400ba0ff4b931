import { describe, expect, it } from 'vitest';
import { digitsOf, twilioInboundEvent, twilioStatusEvent, whatsAppInboundEvent, whatsAppStatusEvent } from './webhook-events';

const at = new Date('2026-11-24T08:00:00Z');
const message = { from: '34600111222', id: 'wamid.A', timestamp: '1700000000' };

describe('webhook events', () => {
  it('keys a status by message id and status, so each step applies once and steps are not mistaken for retries', () => {
    const read = whatsAppStatusEvent({ id: 'wamid.A', status: 'read', timestamp: '1700000000' });
    expect(read).toMatchObject({ eventKey: 'whatsapp:status:wamid.A:read', at: new Date(1_700_000_000_000), errors: [] });
    expect(whatsAppStatusEvent({ id: 'wamid.A', status: 'deleted', timestamp: '1700000000' })).toBeNull();
    expect(whatsAppStatusEvent({ id: 'wamid.A', status: 'failed', timestamp: '1', errors: [{ code: 131026 }] })?.errors).toEqual([
      { code: '131026' },
    ]);
  });

  it('reads a Spanish button title and a thumbs-up as "taken", and ignores kinds we do not act on', () => {
    const button = whatsAppInboundEvent({ ...message, type: 'button', button: { text: 'Tomada ✓' } });
    expect(button?.reading.interpretation).toEqual({ kind: 'reply', reply: { intent: 'taken' } });
    const reaction = whatsAppInboundEvent({ ...message, type: 'reaction', reaction: { message_id: 'wamid.out', emoji: '👍' } });
    expect(reaction).toMatchObject({
      replyToProviderMessageId: 'wamid.out',
      reading: { interpretation: { kind: 'reply', reply: { intent: 'taken' } } },
    });
    expect(whatsAppInboundEvent({ ...message, type: 'sticker' })?.reading).toEqual({
      content: { kind: 'media', mediaType: 'sticker' },
      interpretation: null,
    });
    for (const type of ['system', 'unsupported', 'edit', 'revoke', 'order', 'text']) {
      // 'text' without its text object is not a message we can read either.
      expect([type, whatsAppInboundEvent({ ...message, type })]).toEqual([type, null]);
    }
  });

  it('tells WhatsApp through Twilio from SMS, and keeps only the digits of the sender', () => {
    expect(digitsOf('whatsapp:+1 (501) 712-2661')).toBe('15017122661');
    expect(twilioInboundEvent({ messageSid: 'SM1', from: 'whatsapp:+15017122661', body: 'BAJA', numMedia: 0, at })).toMatchObject({
      channel: 'whatsapp',
      sender: '15017122661',
      reading: { interpretation: { kind: 'keyword', keyword: { action: 'opt-out', language: 'es' } } },
    });
    expect(twilioInboundEvent({ messageSid: 'SM2', from: '+15017122661', body: '1', numMedia: 0, at }).channel).toBe('sms');
    expect(twilioStatusEvent({ messageSid: 'SM3', status: 'undelivered', errorCode: '30003', to: '+15017122661', at })).toMatchObject({
      channel: 'sms',
      eventKey: 'twilio:status:SM3:undelivered',
      errors: [{ code: '30003' }],
    });
  });
});
