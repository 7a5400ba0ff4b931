import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { insertMessageFixture } from '@/features/message-data-collection/server/test-support/message-fixture';
import { serveRoutesFrom } from '@/lib/server/route-testing';
import { GET as liveFeed } from './route';

/** The first SSE event of a response body. */
async function firstEvent(body: ReadableStream<Uint8Array>): Promise<{ name: string; data: unknown }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before an event');
    buffer += decoder.decode(value, { stream: true });
    const match = /event: (.*)\ndata: (.*)\n\n/.exec(buffer);
    if (match !== null) {
      await reader.cancel();
      return { name: match[1]!, data: JSON.parse(match[2]!) };
    }
  }
}

describe.each(testDatabaseBackends())('the live message feed on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('refuses a visitor and streams the latest messages of the scope to a signed-in user', async () => {
    const server = await serveRoutesFrom(database);
    try {
      await insertMessageFixture(database.database, { users: false });
      const open = (query: string, cookie: string | null) => {
        const controller = new AbortController();
        return {
          controller,
          response: liveFeed(
            new NextRequest(`http://localhost:3000/api/messages/live-feed${query}`, {
              headers: { host: 'localhost:3000', ...(cookie === null ? {} : { cookie }) },
              signal: controller.signal,
            }),
          ),
        };
      };
      const refused = await open('', null).response;
      expect(refused.status).toBe(401);

      const admin = open('?channel=sms', await server.signIn('admin'));
      const response = await admin.response;
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const event = await firstEvent(response.body!);
      admin.controller.abort();
      expect(event.name).toBe('messages');
      const { items } = event.data as { items: { channel: string; pseudonym: string | null }[] };
      // The fixture's SMS messages (an outbound and a STOP), newest first.
      expect(items.map((item) => item.channel)).toEqual(['sms', 'sms']);
      expect(items.every((item) => item.pseudonym !== null)).toBe(true);

      // A clinician of no organisation has no patients: the feed is empty, not everyone's.
      const clinician = open('', await server.signIn('clinician'));
      const empty = await firstEvent((await clinician.response).body!);
      clinician.controller.abort();
      expect(empty).toEqual({ name: 'messages', data: { items: [], initial: true } });
    } finally {
      server.restore();
    }
  });
});
