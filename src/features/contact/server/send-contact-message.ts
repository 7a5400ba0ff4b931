import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { contactMessages } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { getLogger } from '@/lib/logger';
import { parseInput } from '@/lib/parse-input';
import type { Mailer } from '@/lib/server/mailer';
import { consumeSlidingRateLimit } from '@/lib/server/rate-limit';
import { contactMessageSchema } from '../schemas';

export type SendContactMessageResult = { id: string; delivery: 'sent' | 'failed' };

/**
 * Validates a contact message, stores it, then e-mails it to the team (SMTP or the local outbox).
 * The message is stored before delivery is attempted, so a failing mail server loses nothing.
 */
export async function sendContactMessage(options: {
  database: Database;
  mailer: Mailer;
  recipient: string;
  clientAddress: string;
  limitPerMinute: number;
  input: Record<string, unknown>;
  /** The request's clock for the rate limit (tests set it). */
  now?: Date;
}): Promise<SendContactMessageResult> {
  // Sliding, as the sign-in limits are: "5 a minute" holds for any 60 seconds, where a fixed window let 5 through
  // just before a minute's start and 5 more just after.
  const rateLimit = await consumeSlidingRateLimit({
    database: options.database,
    scope: 'contact-message',
    subject: options.clientAddress,
    limit: options.limitPerMinute,
    windowSeconds: 60,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  if (!rateLimit.allowed) {
    throw new AppError(
      'rate_limited',
      `Too many messages from this connection. Please wait ${rateLimit.retryAfterSeconds} seconds and try again.`,
    );
  }

  const input = parseInput(contactMessageSchema, options.input, { label: 'The contact form' });

  const [stored] = await options.database
    .insert(contactMessages)
    .values({
      subject: input.subject,
      message: input.message,
      contactName: input.contactName,
      contactEmail: input.contactEmail,
      contactNumber: input.contactNumber ?? null,
      deliveryChannel: options.mailer.channel,
    })
    .returning({ id: contactMessages.id });
  if (stored === undefined) {
    throw new AppError('internal', 'The message could not be stored.');
  }

  let delivery: SendContactMessageResult['delivery'] = 'sent';
  try {
    await options.mailer.send({
      to: options.recipient,
      replyTo: input.contactEmail,
      subject: `[Contact] ${input.subject}`,
      text: [`From: ${input.contactName} <${input.contactEmail}>`, `Phone: ${input.contactNumber ?? 'not given'}`, '', input.message].join(
        '\n',
      ),
    });
  } catch (error) {
    delivery = 'failed';
    // Only the record id and the transport's error code: the message itself may identify a patient.
    getLogger().error(
      { contactMessageId: stored.id, channel: options.mailer.channel, errorCode: (error as { code?: string }).code },
      'contact message stored but not delivered',
    );
  }
  await options.database.update(contactMessages).set({ deliveryStatus: delivery }).where(eq(contactMessages.id, stored.id));

  return { id: stored.id, delivery };
}
