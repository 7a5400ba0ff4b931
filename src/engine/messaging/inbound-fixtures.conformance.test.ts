/**
 * The provider fixtures in ../shared/testdata (WhatsApp Cloud API webhooks from pywa, a Twilio inbound
 * SMS, a WhatsApp chat export), read as the webhook code will hand them to the engine: none is mistaken
 * for a dose answer or a keyword, and every line of a real chat export is read without error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpretInbound } from './interpret-inbound';
import type { InboundReply } from './reply-classifier';

const testdata = path.resolve(process.cwd(), '../shared/testdata');

type CloudMessage = {
  type: string;
  text?: { body: string };
  button?: { payload: string; text: string };
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string } };
  reaction?: { emoji: string };
};

/** What the webhook will extract from one Cloud API message; null for media, which carries no answer. */
function inboundOf(message: CloudMessage): InboundReply | null {
  if (message.type === 'text' && message.text) return { kind: 'text', text: message.text.body };
  if (message.type === 'button' && message.button) return { kind: 'button', payload: message.button.payload, title: message.button.text };
  const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
  if (message.type === 'interactive' && reply) return { kind: 'button', payload: reply.id, title: reply.title };
  if (message.type === 'reaction' && message.reaction) return { kind: 'reaction', emoji: message.reaction.emoji };
  return null;
}

describe('provider fixtures', () => {
  it('reads every inbound WhatsApp Cloud API fixture, none as a dose answer or keyword', () => {
    const directory = path.join(testdata, 'whatsapp-cloud-api/split');
    const files = fs.readdirSync(directory).filter((file) => file.startsWith('inbound_'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    const kinds: string[] = [];
    for (const file of files) {
      const envelope = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as {
        entry: { changes: { value: { messages?: CloudMessage[] } }[] }[];
      };
      for (const message of envelope.entry.flatMap((entry) => entry.changes.flatMap((change) => change.value.messages ?? []))) {
        const inbound = inboundOf(message);
        kinds.push(inbound?.kind ?? 'media');
        if (inbound !== null)
          expect([file, interpretInbound(inbound)]).toEqual([file, { kind: 'reply', reply: { intent: 'unrecognised' } }]);
      }
    }
    expect(new Set(kinds)).toEqual(new Set(['text', 'button', 'reaction', 'media']));
  });

  it('reads the Twilio inbound SMS body ("Ahoy") as unrecognised', () => {
    const form = new URLSearchParams(
      fs.readFileSync(path.join(testdata, 'twilio/inbound_sms_plugin-webhook.form-urlencoded.txt'), 'utf8').trim(),
    );
    expect(interpretInbound({ kind: 'text', text: form.get('Body') ?? '' })).toEqual({ kind: 'reply', reply: { intent: 'unrecognised' } });
  });

  it('reads every line of a real chat export without error, and its "yes😄" as a yes', () => {
    const lines = fs.readFileSync(path.join(testdata, 'whatsapp-export/WhatsR/englishandroid24h.txt'), 'utf8').split('\n');
    const texts = lines.map((line) => /^[^-]+ - [^:]+: (.*)$/.exec(line)?.[1]).filter((text): text is string => text !== undefined);
    expect(texts.length).toBeGreaterThan(20);
    const readings = texts.map((text) => interpretInbound({ kind: 'text', text }));
    expect(readings.every((reading) => reading.kind === 'reply')).toBe(true);
    expect(interpretInbound({ kind: 'text', text: texts.find((text) => text.startsWith('yes')) ?? '' })).toEqual({
      kind: 'reply',
      reply: { intent: 'taken' },
    });
  });
});
