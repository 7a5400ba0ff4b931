import 'server-only';
/**
 * The live feed of the latest messages and replies as Server-Sent Events (issue 16 item 2,
 * docs/decisions/035). The server polls the database every few seconds by send time — one indexed query
 * per open feed, the same on PGlite and PostgreSQL (PGlite has no LISTEN across processes) — and sends:
 * - `messages` {items, initial}: first the latest messages of the viewer's scope and filters (newest
 *   first), then each poll's new ones (oldest first);
 * - `end` {reason}: the stream is bounded (5 minutes, or the session ended); the browser reconnects;
 * - a comment every 25 s so proxies keep the connection open.
 * Items are de-identified (no text, no number; a pseudonym only for viewers who may list patients and see
 * unsuppressed figures). A reply inserted late with an earlier send time (a provider's timestamp) is still
 * found: each poll looks back two minutes and skips what it already sent.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { findCohortScope, type Viewer } from '@/db/queries/cohort-scope';
import { messageConditions } from '@/db/queries/message-scope';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { MS_PER_DAY } from '@/engine/time/local-day';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { LiveFeedItem, MessageFilterQuery } from '../schemas';
import { readFeedMessagesSince, readLatestFeedMessages } from './read-feed-messages';

export type LiveFeedLimits = {
  /** Messages in the first event. */
  latest: number;
  pollMs: number;
  /** How far each poll looks back before its previous one, for rows stored late with an earlier time. */
  lookbackMs: number;
  /** The stream closes after this long (the browser reconnects). */
  maxDurationMs: number;
  /** At most this many new messages per poll (the rest come with the next). */
  perPoll: number;
  heartbeatMs: number;
  sessionCheckMs: number;
  /** Open feeds per user and per process. */
  perUser: number;
  perProcess: number;
};

export const liveFeedLimits: LiveFeedLimits = {
  latest: 20,
  pollMs: 3_000,
  lookbackMs: 120_000,
  maxDurationMs: 5 * 60_000,
  perPoll: 100,
  heartbeatMs: 25_000,
  sessionCheckMs: 60_000,
  perUser: 3,
  perProcess: 100,
};

export const tooManyFeedsMessage = 'Too many live feeds are open for this account; close another tab showing the feed and try again.';
export const feedsBusyMessage = 'The live feed is busy; try again in a minute.';

// Open feeds of this process, per user: each poll is a query, so their number is bounded.
const openFeeds = new Map<string, number>();
let openFeedTotal = 0;

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

export async function streamLiveMessageFeed(options: {
  database: Database;
  actor: Viewer | null;
  filters: MessageFilterQuery;
  signal: AbortSignal;
  /** Re-checks the session; false ends the stream. */
  sessionIsValid: () => Promise<boolean>;
  now?: () => Date;
  limits?: Partial<LiveFeedLimits>;
}): Promise<ReadableStream<Uint8Array>> {
  const { database, actor, filters } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const limits = { ...liveFeedLimits, ...options.limits };
  const now = options.now ?? (() => new Date());
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company')
    throw new AppError('forbidden', 'The live feed shows the messages of your companies’ patients: you belong to no drug company yet.');
  const withPseudonym = !seesSuppressedAggregates(actor.role) && hasPermission(actor.role, 'patients:list');
  // Every message up to tomorrow (a clock a little ahead of ours), in the viewer's scope and filters.
  const today = Math.floor(now().getTime() / MS_PER_DAY);
  const where =
    messageConditions(database, scope, {
      period: { start: 0, end: today + 2 },
      channel: filters.channel,
      persona: filters.persona,
      productId: filters.productId,
    }) ?? sql`false`;

  const users = openFeeds.get(actor.id) ?? 0;
  if (users >= limits.perUser) throw new AppError('rate_limited', tooManyFeedsMessage);
  if (openFeedTotal >= limits.perProcess) throw new AppError('unavailable', feedsBusyMessage);
  openFeeds.set(actor.id, users + 1);
  openFeedTotal += 1;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    openFeedTotal -= 1;
    const left = (openFeeds.get(actor.id) ?? 1) - 1;
    if (left <= 0) openFeeds.delete(actor.id);
    else openFeeds.set(actor.id, left);
  };

  let cleanup = () => release();
  // Also set when the reader cancels: nothing may be enqueued after that.
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const timers: ReturnType<typeof setTimeout>[] = [];
      const send = (chunk: Uint8Array) => {
        if (!closed) controller.enqueue(chunk);
      };
      const close = (reason: string | null) => {
        if (closed) return;
        if (reason !== null) send(event('end', { reason }));
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      // id → send time (ms) of what was sent within the look-back, so a poll skips it.
      const seen = new Map<string, number>();
      let polledUntil = now();
      const remember = (items: LiveFeedItem[]) => {
        for (const item of items) seen.set(item.id, Date.parse(item.sentAt));
      };
      const poll = async () => {
        if (closed) return;
        try {
          const until = now();
          const since = new Date(polledUntil.getTime() - limits.lookbackMs);
          const found = await readFeedMessagesSince({ database, where, since, until, limit: limits.perPoll + seen.size, withPseudonym });
          const fresh = found.filter((item) => !seen.has(item.id)).slice(0, limits.perPoll);
          remember(fresh);
          // Keep only what the next poll's look-back can find again.
          for (const [id, sentAt] of seen) if (sentAt < since.getTime()) seen.delete(id);
          // A full poll leaves the rest to the next one, from the last message it sent.
          polledUntil = fresh.length === limits.perPoll ? new Date(Date.parse(fresh.at(-1)!.sentAt)) : until;
          if (fresh.length > 0) send(event('messages', { items: fresh, initial: false }));
          if (!closed) timers.push(setTimeout(() => void poll(), limits.pollMs));
        } catch {
          close('error');
        }
      };
      cleanup = () => {
        for (const timer of timers) clearTimeout(timer);
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        release();
      };
      const heartbeat = setInterval(() => send(encoder.encode(': keep-alive\n\n')), limits.heartbeatMs);
      const sessionCheck = setInterval(() => {
        void options.sessionIsValid().then((valid) => {
          if (!valid) close('signed-out');
        });
      }, limits.sessionCheckMs);
      timers.push(setTimeout(() => close('time-limit'), limits.maxDurationMs));
      if (options.signal.aborted) {
        close(null);
        return;
      }
      options.signal.addEventListener('abort', () => close(null));
      // The browser waits this long before reconnecting after the stream ends.
      send(encoder.encode('retry: 5000\n\n'));
      void (async () => {
        try {
          const until = now();
          const latest = await readLatestFeedMessages({ database, where, until, limit: limits.latest, withPseudonym });
          remember(latest);
          polledUntil = until;
          send(event('messages', { items: latest, initial: true }));
          if (!closed) timers.push(setTimeout(() => void poll(), limits.pollMs));
        } catch {
          close('error');
        }
      })();
    },
    cancel() {
      closed = true;
      cleanup();
    },
  });
}
