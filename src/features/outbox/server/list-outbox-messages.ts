import 'server-only';
import { desc } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { outboxMessages } from '@/db/schema';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';

export type OutboxMessage = {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  createdAt: string;
};

/** Whether the development outbox may be shown: in development, or when DEV_OUTBOX=true (tests of a production build). */
export function outboxIsAvailable(environment: Environment): boolean {
  return environment.NODE_ENV === 'development' || environment.DEV_OUTBOX;
}

/** The newest messages of the local e-mail and SMS outbox. */
export async function listOutboxMessages(options: {
  database: Database;
  environment: Environment;
  limit?: number;
}): Promise<OutboxMessage[]> {
  if (!outboxIsAvailable(options.environment)) throw new AppError('not_found', 'There is no outbox here.');
  const rows = await options.database
    .select({
      id: outboxMessages.id,
      channel: outboxMessages.channel,
      recipient: outboxMessages.recipient,
      subject: outboxMessages.subject,
      body: outboxMessages.body,
      createdAt: outboxMessages.createdAt,
    })
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.createdAt))
    .limit(options.limit ?? 100);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
