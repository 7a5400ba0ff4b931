import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { WebhookProvider } from '../webhook-events';

/**
 * Audits a webhook whose signature is missing or wrong and returns the error to answer with (WhatsApp 401,
 * Twilio 403, as each documents). The row says which endpoint and why, never the body or the signature.
 */
export async function refuseWebhook(options: {
  database: Database;
  provider: WebhookProvider;
  path: string;
  signaturePresent: boolean;
  request: RequestContext;
}): Promise<AppError> {
  await recordAuditEvent(options.database, {
    action: 'webhook.signature-refused',
    outcome: 'denied',
    ...options.request,
    details: { provider: options.provider, path: options.path, reason: options.signaturePresent ? 'wrong-signature' : 'unsigned' },
  });
  return options.provider === 'whatsapp'
    ? new AppError('unauthenticated', 'The webhook signature (X-Hub-Signature-256) is missing or wrong.')
    : new AppError('forbidden', 'The webhook signature (X-Twilio-Signature) is missing or wrong.');
}
