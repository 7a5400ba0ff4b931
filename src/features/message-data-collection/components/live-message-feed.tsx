'use client';

import { Button } from '@heroui/react';
import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '@/lib/format';
import type { LiveFeedItem } from '../schemas';
import { TableScroll } from '@/lib/components/table-scroll';

/** Messages the feed keeps on screen. */
export const feedSize = 20;
/** A screen reader hears at most one summary per this many milliseconds, however fast messages arrive. */
const announceEveryMs = 15_000;
const reconnectDelays = [5_000, 15_000, 60_000];

type Connection = 'connecting' | 'live' | 'reconnecting' | 'paused' | 'signed-out';

const connectionWords: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Live: new messages appear as they are stored (checked every few seconds).',
  reconnecting: 'Connection lost; reconnecting…',
  paused: 'Paused: new messages are not shown until you resume.',
  'signed-out': 'Your session has ended; sign in again to see the feed.',
};

const intentWords: Record<string, string> = {
  taken: 'Taken',
  'not-yet': 'Not yet',
  skipped: 'Skipped',
  missed: 'Missed',
  unrecognised: 'Not recognised',
  stop: 'STOP (opt-out)',
  start: 'START (opt-in)',
  help: 'HELP',
  media: 'Media',
};

/** Newest first, one row per message, at most `feedSize`. */
export function mergeFeed(current: readonly LiveFeedItem[], incoming: readonly LiveFeedItem[]): LiveFeedItem[] {
  const byId = new Map(current.map((item) => [item.id, item]));
  for (const item of incoming) byId.set(item.id, item);
  return [...byId.values()]
    .sort((left, right) => right.sentAt.localeCompare(left.sentAt) || right.id.localeCompare(left.id))
    .slice(0, feedSize);
}

/**
 * The live feed (Server-Sent Events from /api/messages/live-feed): the latest messages and replies of the
 * viewer's scope and filters, de-identified. Pausing closes the stream (nothing is fetched while paused);
 * resuming opens it again and fills in the latest. The server ends each stream after a few minutes and the
 * feed reconnects; a refused connection is retried with a growing delay. The table is not a live region:
 * one polite summary at most every 15 s keeps screen readers informed without reading every row.
 */
export function LiveMessageFeed({ query, showPseudonyms }: { query: string; showPseudonyms: boolean }) {
  const [items, setItems] = useState<LiveFeedItem[]>([]);
  const [paused, setPaused] = useState(false);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [announcement, setAnnouncement] = useState('');
  const unannounced = useRef(0);
  const lastAnnounced = useRef(0);

  useEffect(() => {
    if (paused) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;
    const announce = () => {
      if (unannounced.current === 0 || Date.now() - lastAnnounced.current < announceEveryMs) return;
      setAnnouncement(`${unannounced.current} new message${unannounced.current === 1 ? '' : 's'} in the live feed.`);
      unannounced.current = 0;
      lastAnnounced.current = Date.now();
    };
    const announcer = setInterval(announce, announceEveryMs);
    const open = () => {
      if (stopped) return;
      source = new EventSource(`/api/messages/live-feed${query === '' ? '' : `?${query}`}`);
      source.addEventListener('open', () => {
        attempts = 0;
        setConnection('live');
      });
      source.addEventListener('messages', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as { items: LiveFeedItem[]; initial: boolean };
        if (!data.initial) unannounced.current += data.items.length;
        setItems((current) => mergeFeed(current, data.items));
        setConnection('live');
      });
      source.addEventListener('end', (event) => {
        const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
        source?.close();
        if (reason === 'signed-out') {
          stopped = true;
          setConnection('signed-out');
          return;
        }
        // The server's time limit: a fresh stream at once; after an error, more slowly each time.
        setConnection('reconnecting');
        const delay = reason === 'time-limit' ? 1_000 : reconnectDelays[Math.min(attempts, reconnectDelays.length - 1)];
        if (reason !== 'time-limit') attempts += 1;
        retry = setTimeout(open, delay);
      });
      source.addEventListener('error', () => {
        // A dropped connection is retried by the browser itself; a refused one (CLOSED) by us, more slowly each time.
        if (source?.readyState !== EventSource.CLOSED) {
          setConnection('reconnecting');
          return;
        }
        setConnection('reconnecting');
        retry = setTimeout(open, reconnectDelays[Math.min(attempts, reconnectDelays.length - 1)]);
        attempts += 1;
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(announcer);
      source?.close();
    };
  }, [paused, query]);

  const state: Connection = paused ? 'paused' : connection;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          onPress={() => {
            // Resuming opens a new stream: "connecting" until it answers.
            if (paused) setConnection('connecting');
            setPaused(!paused);
          }}
          aria-pressed={paused}
        >
          {paused ? 'Resume the feed' : 'Pause the feed'}
        </Button>
        <p className="text-sm text-muted" data-testid="live-feed-state" data-state={state}>
          {connectionWords[state]}
        </p>
      </div>
      <p aria-live="polite" className="sr-only">
        {paused ? '' : announcement}
      </p>
      <TableScroll label="Latest messages and replies">
        <table className="w-full text-left text-sm" data-testid="live-feed">
          <caption className="sr-only">The latest {feedSize} messages and replies, newest first</caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className="py-1 pr-3">
                Time
              </th>
              <th scope="col" className="py-1 pr-3">
                Channel
              </th>
              <th scope="col" className="py-1 pr-3">
                Direction
              </th>
              <th scope="col" className="py-1 pr-3">
                Category / template
              </th>
              <th scope="col" className="py-1 pr-3">
                Status
              </th>
              <th scope="col" className="py-1 pr-3">
                Reply intent
              </th>
              {showPseudonyms ? (
                <th scope="col" className="py-1 pr-3">
                  Patient
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr>
                <td colSpan={showPseudonyms ? 7 : 6} className="py-2 text-muted">
                  {state === 'live' ? 'No messages in your scope and filters yet.' : 'Waiting for the feed…'}
                </td>
              </tr>
            ) : (
              items.map((item) => (
                <tr key={item.id} className="border-b border-separator" data-testid="live-feed-row">
                  <td className="py-1 pr-3 whitespace-nowrap">{formatDateTime(item.sentAt)}</td>
                  <td className="py-1 pr-3">{item.channel === 'whatsapp' ? 'WhatsApp' : item.channel.toUpperCase()}</td>
                  <td className="py-1 pr-3">{item.direction === 'outbound' ? 'Sent' : 'Reply'}</td>
                  <td className="py-1 pr-3">{item.templateId ?? item.category ?? '—'}</td>
                  <td className="py-1 pr-3">{item.status}</td>
                  <td className="py-1 pr-3">{item.replyIntent === null ? '—' : (intentWords[item.replyIntent] ?? item.replyIntent)}</td>
                  {showPseudonyms ? <td className="py-1 pr-3">{item.pseudonym ?? '—'}</td> : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
