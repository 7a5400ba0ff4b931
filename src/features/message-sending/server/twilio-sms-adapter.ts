import 'server-only';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import TwilioServiceException from 'twilio/lib/base/TwilioServiceException';
import type { ChannelAdapter } from './channel-adapter';
import { ChannelSendError, mayHaveArrived } from './channel-send-error';

/** Where the twilio library sends REST calls; TWILIO_API_URL replaces it (a local server in tests). */
const twilioApiOrigin = 'https://api.twilio.com';

/**
 * The library has no base-URL option; its maintainers' answer is a custom HTTP client
 * (twilio/twilio-node#326). This one rewrites the origin and otherwise is the library's own client.
 */
class ApiUrlRequestClient extends twilio.RequestClient {
  constructor(private readonly apiUrl: string) {
    super({ timeout: 15_000 });
  }

  override request<TData>(options: RequestClient.RequestOptions<TData>) {
    const uri =
      options.uri.startsWith(twilioApiOrigin) && this.apiUrl !== twilioApiOrigin
        ? `${this.apiUrl}${options.uri.slice(twilioApiOrigin.length)}`
        : options.uri;
    return super.request<TData>({ ...options, uri });
  }
}

/** Twilio's codes for "too many requests" / queue overflow: retried like HTTP 429. */
const rateLimitCodes = new Set(['20429', '30001']);

function toSendError(error: unknown): ChannelSendError {
  // The library throws RestException for Twilio's classic error body, TwilioServiceException for RFC 9457 problems.
  if (error instanceof twilio.RestException || error instanceof TwilioServiceException) {
    const code = error.code === undefined ? null : String(error.code);
    const kind =
      error.status === 429 || (code !== null && rateLimitCodes.has(code))
        ? 'rate_limited'
        : error.status >= 500
          ? 'unavailable'
          : 'validation';
    return new ChannelSendError({
      provider: 'twilio',
      httpStatus: error.status,
      providerCode: code,
      // Twilio's messages can quote the number ("The 'To' number +1… is not valid"): keep only the code.
      description: code === null ? 'no error code' : `see https://www.twilio.com/docs/api/errors/${code}`,
      code: kind,
    });
  }
  // The library throws plain errors for network trouble (axios): refused before sending, or no answer after it.
  const uncertain = mayHaveArrived(error);
  return new ChannelSendError({
    provider: 'twilio',
    httpStatus: null,
    providerCode: null,
    description: uncertain ? 'no answer (the request may have arrived)' : 'the API could not be reached',
    code: 'unavailable',
    uncertain,
    cause: error,
  });
}

/** SMS through Twilio's official library, with a status callback so delivery reports reach /api/webhooks/twilio/status. */
export function createTwilioSmsAdapter(options: {
  accountSid: string;
  authToken: string;
  from: string;
  apiUrl: string;
  statusCallbackUrl: string;
}): ChannelAdapter<'sms'> {
  const apiUrl = options.apiUrl.replace(/\/$/, '');
  const client = twilio(
    options.accountSid,
    options.authToken,
    apiUrl === twilioApiOrigin ? {} : { httpClient: new ApiUrlRequestClient(apiUrl) },
  );
  return {
    channel: 'sms',
    provider: 'twilio',
    send: async ({ to, body }) => {
      try {
        const message = await client.messages.create({ to, from: options.from, body, statusCallback: options.statusCallbackUrl });
        return { providerMessageId: message.sid, status: message.status === 'accepted' ? 'accepted' : 'queued' };
      } catch (error) {
        throw toSendError(error);
      }
    },
  };
}
