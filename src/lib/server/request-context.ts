import 'server-only';
import { randomUUID } from 'node:crypto';
import { clientAddressHeader } from '@/lib/client-address';
import { isAcceptableRequestId, requestIdHeader } from '@/lib/request-id';

/** Who sent a request, for the audit log: its id (one per request) and the client's address. */
export type RequestContext = { requestId: string; clientAddress: string };

/**
 * The request's id and client address, as the server entry set them (src/cli/serve.ts replaces any value a
 * client sent). Without that entry (next dev, tests) the address is 'unknown' and a fresh id is made: read it
 * once per request and pass it along, so every audit row of one request carries the same id.
 */
export function requestContextOf(headers: Headers): RequestContext {
  const requestId = headers.get(requestIdHeader);
  return {
    requestId: requestId !== null && isAcceptableRequestId(requestId) ? requestId : randomUUID(),
    clientAddress: headers.get(clientAddressHeader) ?? 'unknown',
  };
}
