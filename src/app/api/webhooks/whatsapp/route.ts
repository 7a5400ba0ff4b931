import { getDatabase } from '@/db/client';
import {
  loadWhatsAppWebhookSettings,
  maximumWebhookBodyBytes,
  receiveWhatsAppWebhook,
  verifyWhatsAppSubscription,
  webhookNotConfigured,
} from '@/features/messaging-webhooks';
import { getEnvironment } from '@/lib/env';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedBody } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';

// WhatsApp Cloud API webhook. No session or Origin check: Meta is the caller, proven by the HMAC signature
// over the raw body (WHATSAPP_APP_SECRET); the subscription handshake by WHATSAPP_VERIFY_TOKEN. Where the local
// channel is served and those are unset, secrets derived from the instance secret (/dev/phone signs with them).

export async function GET(request: Request) {
  try {
    const settings = await loadWhatsAppWebhookSettings({ database: getDatabase(), environment: getEnvironment() });
    if (settings === null) throw webhookNotConfigured('WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN');
    const query = new URL(request.url).searchParams;
    const challenge = verifyWhatsAppSubscription({
      settings,
      mode: query.get('hub.mode'),
      verifyToken: query.get('hub.verify_token'),
      challenge: query.get('hub.challenge'),
    });
    return new Response(challenge, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}

export async function POST(request: Request) {
  try {
    const settings = await loadWhatsAppWebhookSettings({ database: getDatabase(), environment: getEnvironment() });
    if (settings === null) throw webhookNotConfigured('WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN');
    const { recorded, duplicates, unmatched, ignored } = await receiveWhatsAppWebhook({
      database: getDatabase(),
      appSecret: settings.appSecret,
      readRawBody: () => readBoundedBody(request, { limitBytes: maximumWebhookBodyBytes, contentTypes: ['application/json'] }),
      signature: request.headers.get('x-hub-signature-256'),
      path: new URL(request.url).pathname,
      request: requestContextOf(request.headers),
    });
    return jsonResponse({ recorded, duplicates, unmatched, ignored });
  } catch (error) {
    return errorResponse(error);
  }
}
