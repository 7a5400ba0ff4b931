import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDatabase } from '@/db/client';
import { listOutboxMessages, outboxIsAvailable } from '@/features/outbox/server/list-outbox-messages';
import { getEnvironment } from '@/lib/env';
import { formatDateTime } from '@/lib/format';

export const metadata: Metadata = { title: 'Outbox' };

/** Development page: the e-mails and SMS the local channel recorded instead of sending. */
export default async function OutboxPage() {
  const environment = getEnvironment();
  if (!outboxIsAvailable(environment)) notFound();
  const messages = await listOutboxMessages({ database: getDatabase(), environment });
  return (
    <article className="flex flex-col gap-4">
      <h1 className="text-3xl font-semibold tracking-tight">Outbox</h1>
      <p className="text-muted">Messages the local e-mail and SMS channel recorded instead of sending (newest first).</p>
      {messages.length === 0 ? <p>The outbox is empty.</p> : null}
      <ul className="flex flex-col gap-3">
        {messages.map((message) => (
          <li key={message.id} className="rounded-2xl border border-separator bg-surface p-4">
            <p className="text-sm text-muted">
              {message.channel === 'sms' ? 'SMS' : 'E-mail'} to {message.recipient} · {formatDateTime(message.createdAt)}
            </p>
            {message.subject ? <p className="font-medium">{message.subject}</p> : null}
            <pre className="mt-2 whitespace-pre-wrap font-sans text-sm">{message.body}</pre>
          </li>
        ))}
      </ul>
    </article>
  );
}
