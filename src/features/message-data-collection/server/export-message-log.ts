import 'server-only';
/**
 * The message log as a CSV download (issue 16 item 2): one row per message of the viewer's scope, period
 * and filters, by pseudonym, for the roles with 'messages:export-log'. No message text and no phone number
 * is written; every text cell goes through the neutralising writer (src/lib/csv.ts). The file is streamed
 * page by page (keyset pagination by send time and id), so a large scope never sits in memory. Every
 * download and every refusal is audited.
 */
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { messageConditions } from '@/db/queries/message-scope';
import { findReportingPeriod, type PeriodChoice, periodView } from '@/db/queries/reporting-period';
import { messages, patients } from '@/db/schema';
import { csvLine } from '@/lib/csv';
import type { InboundReading } from '@/lib/domain/message-records';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { replyIntentOf } from '../reply-intent';
import type { MessageFilterQuery } from '../schemas';

export const messageLogCsvColumns = [
  'message_id',
  'pseudonym',
  'channel',
  'direction',
  'category',
  'framing',
  'template_id',
  'template_version',
  'sent_at',
  'status',
  'delivered_at',
  'read_at',
  'failed_code',
  'reply_intent',
] as const;

const action = 'messages.export-log';
/** Rows per query while streaming. */
export const exportPageSize = 5_000;

const firstAt = (status: string) =>
  sql<string | null>`jsonb_path_query_first(${messages.statusHistory}, ${`$[*] ? (@.status == "${status}").at`}::jsonpath) #>> '{}'`;

export async function exportMessageLog(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  choice?: PeriodChoice;
  filters: MessageFilterQuery;
  request: RequestContext;
  now: Date;
  pageSize?: number;
}): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const { database, filters, request } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'messages:export-log',
    message: 'Only clinicians and admins may download the message log; everyone with access sees the page’s aggregated checks.',
    audit: { database, action, ...request },
  });
  const scope = await findCohortScope({ database, actor });
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now });
  const view = periodView(period);
  const where = messageConditions(database, scope, {
    period: { start: period.start, end: period.end },
    channel: filters.channel,
    persona: filters.persona,
    productId: filters.productId,
  });
  await recordAuditEvent(database, {
    action,
    outcome: 'success',
    actorUserId: actor.id,
    ...request,
    details: {
      scope: scope.kind,
      start: view.start,
      end: view.end,
      channel: filters.channel,
      persona: filters.persona,
      productId: filters.productId,
    },
  });
  return {
    filename: `message-log-${view.start}-to-${view.end}.csv`,
    stream: messageLogStream(database, where, options.pageSize ?? exportPageSize),
  };
}

function messageLogStream(database: Database, where: SQL | null, pageSize: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: { sentAt: Date; id: string } | null = null;
  let headerSent = false;
  let done = where === null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(messageLogCsvColumns)));
        if (done) controller.close();
        return;
      }
      const rows = await database
        .select({
          id: messages.id,
          pseudonym: patients.pseudonym,
          channel: messages.channel,
          direction: messages.direction,
          category: messages.category,
          framing: messages.framing,
          templateId: messages.templateId,
          templateVersion: messages.templateVersion,
          sentAt: messages.sentAt,
          status: messages.status,
          deliveredAt: firstAt('delivered'),
          readAt: firstAt('read'),
          failedCode: sql<
            string | null
          >`jsonb_path_query_first(${messages.statusHistory}, '$[*] ? (@.status == "failed" || @.status == "undelivered").errors[0].code') #>> '{}'`,
          // Read only to classify a demo reply; never written.
          replyText: messages.replyText,
          inboundReading: messages.inboundReading,
        })
        .from(messages)
        .innerJoin(patients, eq(patients.id, messages.patientId))
        .where(
          and(
            where!,
            cursor === null
              ? undefined
              : sql`(${messages.sentAt}, ${messages.id}) > (${cursor.sentAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`,
          ),
        )
        .orderBy(asc(messages.sentAt), asc(messages.id))
        .limit(pageSize);
      let text = '';
      for (const row of rows) {
        text += csvLine([
          row.id,
          row.pseudonym,
          row.channel,
          row.direction,
          row.category,
          row.framing,
          row.templateId,
          row.templateVersion,
          row.sentAt.toISOString(),
          row.status,
          row.deliveredAt,
          row.readAt,
          row.failedCode,
          replyIntentOf({
            direction: row.direction,
            inboundReading: row.inboundReading as InboundReading | null,
            replyText: row.replyText,
          }),
        ]);
      }
      if (text !== '') controller.enqueue(encoder.encode(text));
      const last = rows.at(-1);
      if (rows.length < pageSize || last === undefined) {
        done = true;
        controller.close();
      } else cursor = { sentAt: last.sentAt, id: last.id };
    },
  });
}
