import { describe, expect, it } from 'vitest';
import { replyIntentOf } from './reply-intent';

describe('replyIntentOf', () => {
  it('reads a demo reply text with the engine: keywords first, then the classifier', () => {
    expect(replyIntentOf({ direction: 'inbound', inboundReading: null, replyText: 'STOP' })).toBe('stop');
    expect(replyIntentOf({ direction: 'inbound', inboundReading: null, replyText: 'taken ✓' })).toBe('taken');
    expect(replyIntentOf({ direction: 'inbound', inboundReading: null, replyText: 'what is the weather' })).toBe('unrecognised');
  });

  it("takes a live reply's stored reading, media included, and gives nothing for outbound messages", () => {
    expect(
      replyIntentOf({
        direction: 'inbound',
        inboundReading: {
          content: { kind: 'text', text: 'x' },
          interpretation: { kind: 'reply', reply: { intent: 'skipped', reason: null } },
        },
        replyText: null,
      }),
    ).toBe('skipped');
    expect(
      replyIntentOf({
        direction: 'inbound',
        inboundReading: { content: { kind: 'media', mediaType: 'image' }, interpretation: null },
        replyText: null,
      }),
    ).toBe('media');
    expect(replyIntentOf({ direction: 'outbound', inboundReading: null, replyText: null })).toBeNull();
  });
});
