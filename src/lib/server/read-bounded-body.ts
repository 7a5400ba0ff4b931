import 'server-only';
import { AppError } from '@/lib/errors';

export type BodyLimit = {
  /** Largest body accepted, in bytes; past it the answer is 413 and reading stops. */
  limitBytes: number;
  /** Media types accepted (parameters such as charset ignored); anything else is 415. Omit to accept any. */
  contentTypes?: readonly string[];
  /** Says what to do instead, in the 413 message ("Split the file …"). */
  tooLargeHint?: string;
};

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

function tooLarge(limit: BodyLimit): AppError {
  return new AppError(
    'payload_too_large',
    `The body is larger than ${megabytes(limit.limitBytes)}.${limit.tooLargeHint ? ` ${limit.tooLargeHint}` : ''}`,
  );
}

/** The request's media type in lower case without parameters ("application/json"), or '' when absent. */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The one way a route handler reads a request body: the media type is checked first (415), a declared
 * Content-Length past the limit is refused before reading (413), and the bytes are counted while they stream
 * in, so a lying or absent Content-Length cannot make the server hold more than the limit: reading stops and
 * the stream is cancelled at the first chunk past it. Call it after authenticating the caller.
 */
export async function readBoundedBody(request: Request, limit: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  if (limit.contentTypes !== undefined && !limit.contentTypes.includes(mediaTypeOf(request))) {
    throw new AppError('unsupported_media_type', `Send the body as ${limit.contentTypes.join(' or ')} (Content-Type).`);
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit.limitBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(limit);
  }
  if (request.body === null) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit.limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** readBoundedBody decoded as UTF-8 (invalid bytes become U+FFFD, as Request.text() does). */
export async function readBoundedText(request: Request, limit: BodyLimit): Promise<string> {
  return new TextDecoder().decode(await readBoundedBody(request, limit));
}

/** readBoundedText parsed as JSON; a body that is not JSON is a 400 naming what was expected. */
export async function readBoundedJson(request: Request, limit: BodyLimit & { expected: string }): Promise<unknown> {
  const text = await readBoundedText(request, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('validation', `The body must be JSON: ${limit.expected}.`);
  }
}
