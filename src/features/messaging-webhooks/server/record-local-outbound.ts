import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages, patients } from '@/db/schema';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { localOutboundSchema } from '../phone-schemas';

/**
 * Development and tests only (where the local outbox is served): stores an outbound message as the local
 * channel stores what it "sends" (provider ids 'wamid.local.<uuid>' / 'SMlocal<32 hex>', status sent), without a
 * policy decision, so /dev/phone and the reply path can be exercised without the daily loop.
 */
export async function recordLocalOutbound(options: {
  database: Database;
  environment: Environment;
  input: unknown;
  now: Date;
}): Promise<{ messageId: string; providerMessageId: string }> {
  const { database, now } = options;
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no phone here.');
  const input = parseInput(localOutboundSchema, options.input, { label: 'The local message' });
  const [patient] = await database.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, input.pseudonym));
  if (patient === undefined) throw new AppError('not_found', 'pseudonym: no patient has this pseudonym.');
  const providerMessageId = input.channel === 'whatsapp' ? `wamid.local.${randomUUID()}` : `SMlocal${randomUUID().replaceAll('-', '')}`;
  const [row] = await database
    .insert(messages)
    .values({
      patientId: patient.id,
      channel: input.channel,
      direction: 'outbound',
      body: input.body,
      sentAt: now,
      status: 'sent',
      statusHistory: [{ status: 'sent', at: now.toISOString() }],
      providerMessageId,
      source: 'local',
      sourceRecordId: providerMessageId,
    })
    .returning({ id: messages.id });
  return { messageId: row!.id, providerMessageId };
}
