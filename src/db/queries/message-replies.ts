import 'server-only';
/**
 * Which inbound message answers which outbound one, as SQL for the pages that count replies (message flow,
 * messaging overview, WhatsApp analysis, message data collection): one rule, so their reply figures agree.
 * It is the reply handler's rule (message-replies' findAnsweredMessage): an inbound message of the patient on
 * the message's channel answers it when it quotes it (WhatsApp context or reaction target; at any time
 * after it), or, quoting nothing, when it arrives within the reply window after it with no later outbound
 * message of ours on that channel in between. Simulated (demo) messages carry no provider ids, so only the
 * second clause applies to them. (The handler also falls back to the second clause for a reply quoting a
 * message it cannot find; a count cannot tell that case apart, so here a quoting reply answers only what it quotes.)
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** How long after a message an unquoted reply still answers it (WhatsApp's customer service window). */
export const REPLY_WINDOW_HOURS = 24;
export const REPLY_WINDOW_MS = REPLY_WINDOW_HOURS * 60 * 60 * 1000;
const replyWindow = sql.raw(`interval '${REPLY_WINDOW_HOURS} hours'`);

/** The outbound message the rule is applied to: the enclosing query's columns (e.g. `messages`) or values. */
type ColumnOrValue = SQLWrapper | string | null;
export type OutboundColumns = { patientId: ColumnOrValue; channel: ColumnOrValue; sentAt: ColumnOrValue; providerMessageId: ColumnOrValue };

/** The condition on `inbound` (an alias of messages) that it answers the outbound message. */
function answers(outbound: OutboundColumns): SQL {
  return sql`inbound.patient_id = ${outbound.patientId} and inbound.channel = ${outbound.channel} and inbound.direction = 'inbound'
    and inbound.sent_at >= ${outbound.sentAt}
    and (inbound.reply_to_provider_message_id = ${outbound.providerMessageId}
      or (inbound.reply_to_provider_message_id is null and inbound.sent_at <= ${outbound.sentAt} + ${replyWindow}
        and not exists (
          select 1 from messages as later
          where later.patient_id = inbound.patient_id and later.channel = inbound.channel and later.direction = 'outbound'
            and later.sent_at > ${outbound.sentAt} and later.sent_at <= inbound.sent_at)))`;
}

/** True when the outbound message was answered. */
export function repliedToSql(outbound: OutboundColumns): SQL<boolean> {
  return sql<boolean>`exists (select 1 from messages as inbound where ${answers(outbound)})`;
}

/** When the first answer arrived (null: none). */
export function firstReplyAtSql(outbound: OutboundColumns): SQL<Date | null> {
  return sql<Date | null>`(select min(inbound.sent_at) from messages as inbound where ${answers(outbound)})`;
}

/** The inbound rows answering the outbound message, first first — for a query that reads the reply itself. */
export function repliesToSql(outbound: OutboundColumns, columns: SQL): SQL {
  return sql`select ${columns} from messages as inbound where ${answers(outbound)} order by inbound.sent_at asc`;
}
