import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@/lib/errors';
import type { WhatsAppWebhookSettings } from './webhook-settings';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Meta's subscription handshake (GET with hub.mode=subscribe, hub.verify_token, hub.challenge): the challenge
 * comes back only when the token is ours, compared in constant time (hashed first, so lengths do not leak).
 */
export function verifyWhatsAppSubscription(options: {
  settings: WhatsAppWebhookSettings;
  mode: string | null;
  verifyToken: string | null;
  challenge: string | null;
}): string {
  const { mode, verifyToken, challenge } = options;
  const tokenMatches = verifyToken !== null && timingSafeEqual(digest(verifyToken), digest(options.settings.verifyToken));
  if (mode !== 'subscribe' || !tokenMatches || challenge === null || challenge.length > 200) {
    throw new AppError('forbidden', 'The verification request is not for this webhook (hub.mode or hub.verify_token).');
  }
  return challenge;
}
