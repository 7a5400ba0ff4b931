import { describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/errors';
import { readBoundedBody, readBoundedJson, readBoundedText } from './read-bounded-body';

/** A body of `chunks` chunks of `chunkBytes` each, counting how many the reader pulled. */
function countingStream(chunks: number, chunkBytes: number) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled === chunks) {
        controller.close();
        return;
      }
      counter.pulled += 1;
      controller.enqueue(new Uint8Array(chunkBytes).fill(97));
    },
    cancel() {
      counter.cancelled = true;
    },
  });
  return { stream, counter };
}

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request('http://app.test/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => ({ status: error.httpStatus, message: error.message }),
  );

describe('readBoundedBody', () => {
  it('refuses a declared Content-Length past the limit without reading the body (413)', async () => {
    const { stream, counter } = countingStream(300, 1024 * 1024);
    const request = post(stream, { 'content-length': String(300 * 1024 * 1024) });
    expect(await refusal(readBoundedBody(request, { limitBytes: 1024 * 1024, tooLargeHint: 'Send fewer events per request.' }))).toEqual({
      status: 413,
      message: 'The body is larger than 1 MB. Send fewer events per request.',
    });
    expect(counter.pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading at the first chunk past the limit when Content-Length is absent or lies', async () => {
    const { stream, counter } = countingStream(300, 64 * 1024);
    expect((await refusal(readBoundedBody(post(stream), { limitBytes: 256 * 1024 })))?.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(6);
    expect(counter.cancelled).toBe(true);
  });

  it('checks the media type before anything else (415) and ignores its parameters', async () => {
    expect(
      (await refusal(readBoundedText(post('a,b', { 'content-type': 'text/plain' }), { limitBytes: 10, contentTypes: ['text/csv'] })))
        ?.status,
    ).toBe(415);
    expect(
      await readBoundedText(post('a,b', { 'content-type': 'Text/CSV; charset=utf-8' }), { limitBytes: 10, contentTypes: ['text/csv'] }),
    ).toBe('a,b');
  });

  it('reads a body within the limit, an empty one, and JSON', async () => {
    expect(await readBoundedText(post('héllo'), { limitBytes: 6 })).toBe('héllo');
    expect((await readBoundedBody(post(null), { limitBytes: 6 })).byteLength).toBe(0);
    expect(await readBoundedJson(post('{"events":[]}'), { limitBytes: 100, expected: '{ "events": [ … ] }' })).toEqual({ events: [] });
    expect(await refusal(readBoundedJson(post('{"events":'), { limitBytes: 100, expected: '{ "events": [ … ] }' }))).toEqual({
      status: 400,
      message: 'The body must be JSON: { "events": [ … ] }.',
    });
  });
});
