import { describe, expect, it } from 'vitest';
import { POST } from './route';

describe('POST /api/auth/*', () => {
  it('refuses a body past 64 KB before better-auth reads it (413), by Content-Length or while streaming', async () => {
    let pulled = 0;
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 256) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const streamed = await POST(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        body: large,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(6);
    const declared = await POST(
      new Request('http://localhost:3000/api/auth/sign-in/email', {
        method: 'POST',
        body: 'x',
        headers: { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) },
      }),
    );
    expect(declared.status).toBe(413);
  });
});
