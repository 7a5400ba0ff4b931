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
import { type MessageFilters, messagePatientConditions } from '@/db/queries/message-scope';
import { messageDayFailureReasons, messageDaySummaries, patients } from '@/db/schema';
import type { FailureReasonCount, ReplyCount } from './count-message-outcomes';
import type { GroupPatientCount, GroupPatientLevel, MessageGroupCount } from './count-message-volumes';

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

/**
 * Distinct patients per group the page shows, for small-cell suppression (what countGroupPatients counts
 * from the messages), from the daily patient bitmaps: a group's days OR-ed, AND-ed with the bitmap of the
 * viewer's patients (scope and persona), and the bits counted. Exact.
 */
export async function countSummarisedGroupPatients(options: {
  database: Database;
  scope: CohortScope;
  filters: MessageFilters;
}): Promise<GroupPatientCount[]> {
  const { database, scope, filters } = options;
  const ofPatients = messagePatientConditions(database, scope, filters);
  if (ofPatients === null) return [];
  const channel = filters.channel ? sql`and channel = ${filters.channel}` : sql``;
  const result = (await database.execute(sql`with
      length as (select length(patients) as bits from message_day_patient_sets limit 1),
      mask as (
        select bit_or(set_bit(lpad('', (select bits from length), '0')::varbit, o.ordinal, 1)) as bits
        from ${patients} inner join message_summary_patients o on o.patient_id = ${patients.id}
        where ${ofPatients ?? sql`true`}
      ),
      cells as (
        select day, day - ((day + 3) % 7) as week, channel, direction, category, patients & (select bits from mask) as patients
        from message_day_patient_sets
        where day >= ${filters.period.start} and day < ${filters.period.end} ${channel}
          and (select bits from mask) is not null
      )
      select 'day-channel' as level, direction, day as key, channel as grp, bit_count(patients)::int as patients
        from cells where category = '*'
      union all select 'week-channel', direction, week, channel, bit_count(bit_or(patients))::int
        from cells where category = '*' group by direction, week, channel
      union all select 'week-category', direction, week, category, bit_count(bit_or(patients))::int
        from cells where category <> '*' group by direction, week, category
      union all select 'channel', direction, null, channel, bit_count(bit_or(patients))::int
        from cells where category = '*' group by direction, channel
      union all select 'category', direction, null, category, bit_count(bit_or(patients))::int
        from cells where category <> '*' group by direction, category
      union all select 'direction', direction, null, null, bit_count(bit_or(patients))::int
        from cells where category = '*' group by direction`)) as unknown as {
    rows: { level: GroupPatientLevel; direction: string; key: number | null; grp: string | null; patients: number }[];
  };
  // A group whose patients are all outside the viewer's scope is no group of theirs.
  return result.rows
    .filter((row) => Number(row.patients) > 0)
    .map((row) => ({
      level: row.level,
      direction: row.direction,
      key: row.key === null ? null : Number(row.key),
      group: row.grp,
      patients: Number(row.patients),
    }));
}
