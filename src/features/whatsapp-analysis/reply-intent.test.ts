import { describe, expect, it } from 'vitest';
import { replyTexts } from '@/engine/simulation/message-response';
import { readReplyIntent } from './reply-intent';

describe('readReplyIntent', () => {
  it('reads demo texts with the engine', () => {
    expect(readReplyIntent('Taken', null)).toEqual({ intent: 'taken', reason: null });
    expect(readReplyIntent('STOP', null)).toEqual({ intent: 'stop', reason: null });
    expect(readReplyIntent('Can I take it with food?', null)).toEqual({ intent: 'question', reason: null });
    expect(readReplyIntent('Feeling dizzy on them', null)).toEqual({ intent: 'missed', reason: 'side-effects' });
    expect(readReplyIntent('Thanks', null)).toEqual({ intent: 'other', reason: null });
    expect(readReplyIntent(null, null)).toEqual({ intent: 'other', reason: null });
  });

  it('gives every simulated question a question and every STOP a stop', () => {
    for (const text of replyTexts.question) expect(readReplyIntent(text, null).intent).toBe('question');
    for (const text of replyTexts.stop) expect(readReplyIntent(text, null).intent).toBe('stop');
  });

  it('uses a live row’s stored reading', () => {
    expect(
      readReplyIntent(null, {
        content: { kind: 'text', text: 'no' },
        interpretation: { kind: 'reply', reply: { intent: 'missed', reason: 'cost' } },
      }),
    ).toEqual({ intent: 'missed', reason: 'cost' });
    expect(
      readReplyIntent(null, {
        content: { kind: 'text', text: 'STOP' },
        interpretation: { kind: 'keyword', keyword: { action: 'opt-out', keyword: 'STOP', language: 'en' } },
      }),
    ).toEqual({ intent: 'stop', reason: null });
    expect(readReplyIntent(null, { content: { kind: 'media', mediaType: 'image' }, interpretation: null })).toEqual({
      intent: 'other',
      reason: null,
    });
    expect(
      readReplyIntent(null, {
        content: { kind: 'text', text: 'skip' },
        interpretation: { kind: 'reply', reply: { intent: 'skipped', reason: null } },
      }),
    ).toEqual({ intent: 'missed', reason: 'none' });
  });
});
