import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { MessagingOverviewView } from '@/features/messaging-overview/components/messaging-overview-view';
import { getMessagingOverview, parseOverviewFilters } from '@/features/messaging-overview';
import { parsePeriodQuery } from '@/lib/period-query';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Patient Messaging System - Overview' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function MessagingOverviewPage({ searchParams }: Props) {
  const query = await searchParams;
  const period = parsePeriodQuery(query);
  const filters = parseOverviewFilters(query);
  const actor = await getSignedInUser();
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Patient Messaging System - Overview</h1>
      <p className="max-w-3xl text-muted">
        What the messaging system sent and received in the reporting period: volumes per day and week by channel and category, how many
        messages were delivered, read, replied to and failed (with the reasons), opt-outs over time, and the programmes patients are on with
        the sends planned next. Filter by channel, persona and product; the address keeps the choice, so the view can be shared.
      </p>
      <MessagingOverviewView
        page={await getMessagingOverview({
          database: getDatabase(),
          actor,
          choice: period.choice,
          filters: filters.filters,
          now: new Date(),
        })}
        periodProblem={period.problem}
        addressProblem={filters.problem}
      />
    </article>
  );
}
