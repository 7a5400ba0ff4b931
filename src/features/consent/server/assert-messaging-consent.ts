import 'server-only';
import type { Database } from '@/db/client';
import type { ConsentChannel, ConsentPurpose } from '@/lib/domain/consent';
import { AppError } from '@/lib/errors';
import { readConsentState, stateKey } from './consent-state';

/**
 * Thrown when a message may not be sent: no opt-in in effect for that channel and purpose. A 'forbidden'
 * AppError, so a route shows its message; the send path checks `instanceof` and records the message as
 * not sent. The message names no patient (it may be logged).
 */
export class MessagingConsentMissingError extends AppError {
  readonly channel: ConsentChannel;
  readonly purpose: ConsentPurpose;
  /** 'never' when there has been no consent event for it, 'withdrawn' when the latest is an opt-out. */
  readonly reason: 'never' | 'withdrawn';

  constructor(options: { channel: ConsentChannel; purpose: ConsentPurpose; reason: 'never' | 'withdrawn' }) {
    super(
      'forbidden',
      `The patient has ${options.reason === 'never' ? 'not opted in to' : 'opted out of'} ${options.purpose} on ${options.channel}; the message was not sent.`,
    );
    this.name = 'MessagingConsentMissingError';
    this.channel = options.channel;
    this.purpose = options.purpose;
    this.reason = options.reason;
  }
}

/**
 * The send path's guard: returns when the patient's latest consent event in effect at `at` for this channel
 * and purpose is an opt-in; otherwise throws MessagingConsentMissingError. Call it right before handing a
 * message to a provider, with `at` the time of sending.
 */
export async function assertMessagingConsent(options: {
  database: Database;
  patientId: string;
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  at: Date;
}): Promise<void> {
  const state = await readConsentState({ database: options.database, patientId: options.patientId, at: options.at });
  const current = state.get(stateKey(options.channel, options.purpose));
  if (current?.granted === true) return;
  throw new MessagingConsentMissingError({
    channel: options.channel,
    purpose: options.purpose,
    reason: current === undefined ? 'never' : 'withdrawn',
  });
}
