import { randomUUID } from 'node:crypto';

/** Set by the server entry point (src/cli/serve.ts) on every request and echoed on its response. */
export const requestIdHeader = 'x-request-id';

// What a proxy's id may look like: no spaces, quotes or control characters, so it is safe in logs and headers.
const acceptableRequestId = /^[A-Za-z0-9._:@-]{8,128}$/;

/**
 * The id of a request: the one a trusted proxy in front of us assigned (so its logs and ours line up), else a
 * fresh one. A client's own value is never believed: it could make two requests look like one.
 */
export function resolveRequestId(options: { incoming: string | string[] | undefined; fromTrustedProxy: boolean }): string {
  const incoming = Array.isArray(options.incoming) ? options.incoming[0] : options.incoming;
  if (options.fromTrustedProxy && incoming !== undefined && acceptableRequestId.test(incoming)) return incoming;
  return randomUUID();
}

/** Whether a header value is a request id we could have set (route handlers re-check what they read). */
export function isAcceptableRequestId(value: string): boolean {
  return acceptableRequestId.test(value);
}
