import 'server-only';
import { type Environment, publicUrl } from '@/lib/env';
import type { ChannelAdapters } from './channel-adapter';
import { createLocalSmsAdapter, createLocalWhatsAppAdapter } from './local-channel-adapters';
import { createTwilioSmsAdapter } from './twilio-sms-adapter';
import { createWhatsAppCloudAdapter } from './whatsapp-cloud-adapter';

/** Where Twilio posts delivery reports of the SMS we send (the route validates X-Twilio-Signature against it). */
export const twilioStatusCallbackPath = '/api/webhooks/twilio/status';

/** The adapters the environment configures: a provider where its credentials are set, else the local channel. */
export function createChannelAdapters(environment: Environment): ChannelAdapters {
  const whatsapp =
    environment.WHATSAPP_ACCESS_TOKEN !== undefined && environment.WHATSAPP_PHONE_NUMBER_ID !== undefined
      ? createWhatsAppCloudAdapter({
          apiUrl: environment.WHATSAPP_API_URL,
          phoneNumberId: environment.WHATSAPP_PHONE_NUMBER_ID,
          accessToken: environment.WHATSAPP_ACCESS_TOKEN,
        })
      : createLocalWhatsAppAdapter();
  const sms =
    environment.TWILIO_ACCOUNT_SID !== undefined && environment.TWILIO_AUTH_TOKEN !== undefined && environment.TWILIO_FROM !== undefined
      ? createTwilioSmsAdapter({
          accountSid: environment.TWILIO_ACCOUNT_SID,
          authToken: environment.TWILIO_AUTH_TOKEN,
          from: environment.TWILIO_FROM,
          apiUrl: environment.TWILIO_API_URL,
          statusCallbackUrl: `${publicUrl(environment)}${twilioStatusCallbackPath}`,
        })
      : createLocalSmsAdapter();
  return { whatsapp, sms };
}

/** The start-up log's line: which way each channel goes (no credentials in it). */
export function describeChannels(environment: Environment): string {
  const whatsapp = environment.WHATSAPP_ACCESS_TOKEN !== undefined ? 'WhatsApp Cloud API' : 'local (/dev/phone)';
  const sms = environment.TWILIO_ACCOUNT_SID !== undefined ? 'Twilio' : 'local (/dev/phone)';
  return `Messaging: WhatsApp via ${whatsapp}; SMS via ${sms}`;
}
