import { describe, expect, it } from 'vitest';
import { mergeFeed } from './components/live-message-feed';
import { parseMessageFilterQuery, type LiveFeedItem } from './schemas';

describe('parseMessageFilterQuery', () => {
  it('reads the channel, persona and product of the address, empty ones as none', () => {
    expect(parseMessageFilterQuery({ channel: 'sms', persona: 'busy-professional', product: '' })).toEqual({
      filters: { channel: 'sms', persona: 'busy-professional', productId: null },
      problem: null,
    });
    expect(parseMessageFilterQuery({}).filters).toEqual({ channel: null, persona: null, productId: null });
  });

  it('names a field at fault and falls back to no filter', () => {
    const parsed = parseMessageFilterQuery({ channel: 'fax', persona: ['a', 'b'] });
    expect(parsed.filters).toEqual({ channel: null, persona: null, productId: null });
    expect(parsed.problem).toContain('persona: persona must be given once');
  });
});

describe('mergeFeed', () => {
  const item = (id: string, minute: number): LiveFeedItem => ({
    id,
    sentAt: new Date(Date.UTC(2026, 10, 1, 8, minute)).toISOString(),
    channel: 'sms',
    direction: 'outbound',
    category: null,
    templateId: null,
    status: 'sent',
    replyIntent: null,
    pseudonym: null,
  });

  it('keeps the newest 20, one row per message, newest first', () => {
    const first = mergeFeed(
      [],
      Array.from({ length: 20 }, (_, index) => item(`m${index}`, index)),
    );
    expect(first).toHaveLength(20);
    expect(first[0]!.id).toBe('m19');
    const next = mergeFeed(first, [item('m19', 19), item('new', 30)]);
    expect(next).toHaveLength(20);
    expect(next.map((row) => row.id).slice(0, 2)).toEqual(['new', 'm19']);
    expect(next.at(-1)!.id).toBe('m1');
  });
});
