import 'server-only';
import type { Database } from '@/db/client';
import { outboxMessages } from '@/db/schema';

export type SmsSender = {
  channel: 'twilio' | 'outbox';
  send: (message: { to: string; body: string }) => Promise<void>;
};

/** Twilio's REST API (Messages resource); no SDK, one authenticated form POST. */
export function createTwilioSmsSender(options: { accountSid: string; authToken: string; from: string; apiUrl: string }): SmsSender {
  return {
    channel: 'twilio',
    send: async ({ to, body }) => {
      const response = await fetch(`${options.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: to, From: options.from, Body: body }),
      });
      if (!response.ok) {
        throw new Error(`Twilio refused the message (HTTP ${response.status})`);
      }
    },
  };
}

/** The local counterpart of an SMS gateway: messages land in the outbox table (/dev/outbox shows them). */
export function createOutboxSmsSender(options: { database: Database }): SmsSender {
  return {
    channel: 'outbox',
    send: async ({ to, body }) => {
      await options.database.insert(outboxMessages).values({ channel: 'sms', recipient: to, body });
    },
  };
}
