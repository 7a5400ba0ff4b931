import 'server-only';
import { getDatabase } from '@/db/client';
import { getEnvironment } from '@/lib/env';
import { errorResponse } from '@/lib/server/http';
import { readBoundedText } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';
import { maximumWebhookBodyBytes } from '../schemas';
import { receiveTwilioWebhook, type TwilioWebhookKind } from './receive-twilio-webhook';
import { loadTwilioWebhookSettings, webhookNotConfigured } from './webhook-settings';

/** Empty TwiML: Twilio sends nothing back (answers to keywords go through the send path). */
const emptyTwiml = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/**
 * The shared body of the two Twilio routes (inbound messages, status callbacks): configuration, the bounded
 * form body, then the use case. No session or Origin check: Twilio is the caller, proven by its signature.
 */
export async function handleTwilioWebhook(request: Request, kind: TwilioWebhookKind): Promise<Response> {
  try {
    const database = getDatabase();
    const settings = await loadTwilioWebhookSettings({ database, environment: getEnvironment() });
    if (settings === null) throw webhookNotConfigured('TWILIO_AUTH_TOKEN, PUBLIC_URL');
    const url = new URL(request.url);
    await receiveTwilioWebhook({
      database,
      settings,
      kind,
      pathAndQuery: `${url.pathname}${url.search}`,
      readFormBody: () =>
        readBoundedText(request, { limitBytes: maximumWebhookBodyBytes, contentTypes: ['application/x-www-form-urlencoded'] }),
      signature: request.headers.get('x-twilio-signature'),
      request: requestContextOf(request.headers),
    });
    return new Response(emptyTwiml, { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8', 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}
