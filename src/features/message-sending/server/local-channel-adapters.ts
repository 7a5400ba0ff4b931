import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChannelAdapter } from './channel-adapter';

/**
 * The local channel (development, tests, an instance without provider credentials): nothing leaves the
 * machine. The send path stores the message like any other, with an id shaped like the provider's, and
 * /dev/phone reads it from the messages table.
 */
export function createLocalWhatsAppAdapter(): ChannelAdapter<'whatsapp'> {
  return {
    channel: 'whatsapp',
    provider: 'local',
    send: async () => ({ providerMessageId: `wamid.local.${randomUUID()}`, status: 'sent' }),
  };
}

export function createLocalSmsAdapter(): ChannelAdapter<'sms'> {
  return {
    channel: 'sms',
    provider: 'local',
    send: async () => ({ providerMessageId: `SMlocal${randomBytes(16).toString('hex')}`, status: 'sent' }),
  };
}
