import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { MessageDataCollectionView } from '@/features/message-data-collection/components/message-data-collection-view';
import { findMessageDataQuality, getMessageDataCollectionPage, parseMessageFilterQuery } from '@/features/message-data-collection';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Message Data Collection' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function MessageDataCollectionPage({ searchParams }: Props) {
  const query = await searchParams;
  const period = parsePeriodQuery(query);
  const filters = parseMessageFilterQuery(query);
  const actor = await getSignedInUser();
  const database = getDatabase();
  const now = new Date();
  const options = { database, actor, choice: period.choice, filters: filters.filters, now };
  const page = await getMessageDataCollectionPage(options);
  // Not awaited: the checks stream into the page when ready (a pass over a year of messages).
  const quality = page.status === 'ok' ? findMessageDataQuality(options) : null;
  return (
    <article className="flex flex-col gap-8">
      <h1 className="text-3xl font-semibold tracking-tight">Message Data Collection</h1>
      <p className="max-w-3xl text-muted">
        What the product keeps about every message it sends and receives, why, on what basis and for how long; the latest messages as they
        arrive; checks of the message data’s quality; and the message log to download.
      </p>
      <MessageDataCollectionView page={page} quality={quality} periodProblem={period.problem} filterProblem={filters.problem} />
    </article>
  );
}
