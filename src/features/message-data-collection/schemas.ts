/**
 * The message data collection page's shapes (browser-safe): the filters in its address, the live feed's
 * items and the data-quality figures.
 */
import { z } from '@/lib/zod';
import { type Channel, channels } from '@/lib/domain/channels';

/** `?channel=&persona=&product=` beside the period (src/lib/period-query.ts): the page, the feed and the export read the same. */
export type MessageFilterQuery = { channel: Channel | null; persona: string | null; productId: string | null };

const once = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(100, { error: `${field} is too long` })
    .optional();

export const messageFilterQuerySchema = z
  .object({ channel: once('channel'), persona: once('persona'), product: once('product') })
  .transform((value, context): MessageFilterQuery => {
    const channel = value.channel === undefined || value.channel === '' ? null : value.channel;
    if (channel !== null && !(channels as readonly string[]).includes(channel)) {
      context.addIssue({ code: 'custom', path: ['channel'], message: `choose one of ${channels.join(', ')}` });
      return z.NEVER;
    }
    return {
      channel: channel as Channel | null,
      persona: value.persona === undefined || value.persona === '' ? null : value.persona,
      productId: value.product === undefined || value.product === '' ? null : value.product,
    };
  });

/** The filters in an address, or none with every problem named (the page says so). */
export function parseMessageFilterQuery(searchParams: Record<string, string | string[] | undefined>): {
  filters: MessageFilterQuery;
  problem: string | null;
} {
  const parsed = messageFilterQuerySchema.safeParse({
    channel: searchParams.channel,
    persona: searchParams.persona,
    product: searchParams.product,
  });
  if (parsed.success) return { filters: parsed.data, problem: null };
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'filters'}: ${issue.message}`);
  return {
    filters: { channel: null, persona: null, productId: null },
    problem: `The filters in the address are not valid (${problems.join('; ')}). Showing all channels, personas and products.`,
  };
}

/** The filters as address parameters (empty ones left out). */
export function filterQueryParams(filters: MessageFilterQuery): Record<string, string | null> {
  return { channel: filters.channel, persona: filters.persona, product: filters.productId };
}

/** What a reply meant, from the engine's reading (live) or the reply classifier (demo). */
export type ReplyIntent = 'taken' | 'not-yet' | 'skipped' | 'missed' | 'unrecognised' | 'stop' | 'start' | 'help' | 'media';

/** One message of the live feed: de-identified (no text, no number); a pseudonym only for viewers who may list patients. */
export type LiveFeedItem = {
  id: string;
  /** ISO 8601. */
  sentAt: string;
  channel: string;
  direction: 'outbound' | 'inbound';
  category: string | null;
  templateId: string | null;
  status: string;
  replyIntent: ReplyIntent | null;
  pseudonym: string | null;
};

/** A count that is hidden for viewers whose aggregates are suppressed when it concerns fewer than 11 patients. */
export type SuppressibleCount = { messages: number; patients: number } | { suppressed: true };

export type DataQualityReport = {
  /** Outbound messages sent at least 24 h before now, within the period (the denominator of the first check). */
  outboundChecked: SuppressibleCount;
  /** Of those, the ones without delivered, read or failed. */
  withoutFinalStatus: SuppressibleCount;
  /** Inbound messages of the period. */
  inbound: SuppressibleCount;
  /** Of those, the ones matched to no outbound message (the rule in docs/decisions/035). */
  unmatchedReplies: SuppressibleCount;
  /**
   * Webhook events of the period kept without effect: a status for a message we do not hold, or a message
   * from a number of no patient. They belong to no patient, so only viewers of every patient see them
   * (null otherwise), and only without a persona or product filter.
   */
  unmatchedWebhookEvents: { unknownMessage: number; unknownSender: number } | null;
  /** Sent → delivered, in seconds, over outbound messages with a delivered status; null when suppressed or none. */
  latency: { p50: number; p90: number; p99: number; messages: number; patients: number } | { suppressed: true } | null;
};
