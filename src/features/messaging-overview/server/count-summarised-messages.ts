import 'server-only';
/**
 * The messaging overview's message counts read from the daily summaries (docs/decisions/045) instead of the
 * messages: the same rows countMessageGroups, countReplies and countFailureReasons return, summed over the
 * period's days. Only for selections the summaries can express: every patient or an organisation's, by channel
 * and persona, without a product filter (a patient may have several products; see summaryCanServe).
 */
import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { CohortScope } from '@/db/queries/cohort-scope';
import type { MessageFilters } from '@/db/queries/message-scope';
import { messageDayFailureReasons, messageDaySummaries } from '@/db/schema';
import type { FailureReasonCount, ReplyCount } from './count-message-outcomes';
import type { MessageGroupCount } from './count-message-volumes';

/** The summaries hold channel, persona and organisation, not products: a product filter or a manufacturer's scope reads the messages. */
export function summaryCanServe(scope: CohortScope, filters: MessageFilters): boolean {
  return (scope.kind === 'all' || scope.kind === 'organisation') && (filters.productId ?? null) === null;
}

function conditions(
  table: typeof messageDaySummaries | typeof messageDayFailureReasons,
  scope: CohortScope,
  filters: MessageFilters,
): SQL | null {
  if (scope.kind === 'organisation' && scope.organisationIds.length === 0) return null;
  return and(
    gte(table.day, filters.period.start),
    lt(table.day, filters.period.end),
    filters.channel ? eq(table.channel, filters.channel) : undefined,
    filters.persona ? eq(table.persona, filters.persona) : undefined,
    scope.kind === 'organisation' ? inArray(table.organisationId, scope.organisationIds) : undefined,
  )!;
}

export async function countSummarisedMessages(options: {
  database: Database;
  scope: CohortScope;
  filters: MessageFilters;
}): Promise<{ groups: MessageGroupCount[]; replies: ReplyCount[]; failureReasons: Omit<FailureReasonCount, 'patients'>[] }> {
  const { database, scope, filters } = options;
  const where = conditions(messageDaySummaries, scope, filters);
  const failureWhere = conditions(messageDayFailureReasons, scope, filters);
  if (where === null || failureWhere === null) return { groups: [], replies: [], failureReasons: [] };
  const s = messageDaySummaries;
  const f = messageDayFailureReasons;
  const [groups, failureReasons] = await Promise.all([
    database
      .select({
        direction: s.direction,
        day: s.day,
        channel: s.channel,
        category: s.category,
        replyText: s.replyText,
        messages: sql<number>`sum(${s.messages})::int`,
        delivered: sql<number>`sum(${s.delivered})::int`,
        read: sql<number>`sum(${s.read})::int`,
        failed: sql<number>`sum(${s.failed})::int`,
        liveStops: sql<number>`sum(${s.liveStops})::int`,
        replied: sql<number>`sum(${s.replied})::int`,
      })
      .from(s)
      .where(where)
      .groupBy(s.direction, s.day, s.channel, s.category, s.replyText),
    database
      .select({ code: f.code, title: sql<string | null>`max(${f.title})`, messages: sql<number>`sum(${f.messages})::int` })
      .from(f)
      .where(failureWhere)
      .groupBy(f.code)
      .orderBy(sql`sum(${f.messages}) desc`, sql`${f.code} asc`),
  ]);
  const replied = new Map<string, number>();
  for (const row of groups) {
    if (row.direction === 'outbound' && Number(row.replied) > 0)
      replied.set(row.channel, (replied.get(row.channel) ?? 0) + Number(row.replied));
  }
  return {
    groups: groups.map((row) => ({
      direction: row.direction as MessageGroupCount['direction'],
      day: Number(row.day),
      channel: row.channel,
      category: row.category,
      replyText: row.replyText,
      messages: Number(row.messages),
      delivered: Number(row.delivered),
      read: Number(row.read),
      failed: Number(row.failed),
      liveStops: Number(row.liveStops),
    })),
    replies: [...replied.entries()].map(([channel, count]) => ({ channel, replied: count })),
    failureReasons: failureReasons.map((row) => ({ code: row.code ?? 'unknown', title: row.title, messages: Number(row.messages) })),
  };
}
