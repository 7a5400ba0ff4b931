import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
// The official library's check (deep import: the package root loads the whole REST client).
import { validateRequest } from 'twilio/lib/webhooks/webhooks';

/** WhatsApp's `X-Hub-Signature-256` for a body: "sha256=" + hex HMAC-SHA256 of the raw bytes with the app secret. */
export function whatsAppSignatureOf(rawBody: Uint8Array, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Whether `X-Hub-Signature-256` signs exactly these bytes. Compared in constant time, so the answer's timing
 * says nothing about how much of a forged signature was right. A missing or malformed header is false.
 */
export function isWhatsAppSignatureValid(options: { rawBody: Uint8Array; signature: string | null; appSecret: string }): boolean {
  const { signature } = options;
  if (signature === null || !/^sha256=[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(whatsAppSignatureOf(options.rawBody, options.appSecret).slice('sha256='.length), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature.slice('sha256='.length), 'hex'));
}

/**
 * Whether `X-Twilio-Signature` signs this request: base64 HMAC-SHA1 over the full public URL Twilio called
 * plus the POST parameters sorted by name. The URL must be the one configured at Twilio (PUBLIC_URL + path),
 * not the one the server sees behind a proxy.
 */
export function isTwilioSignatureValid(options: {
  url: string;
  params: Record<string, string>;
  signature: string | null;
  authToken: string;
}): boolean {
  if (options.signature === null || options.signature === '') return false;
  return validateRequest(options.authToken, options.signature, options.url, options.params);
}
