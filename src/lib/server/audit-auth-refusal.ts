import 'server-only';
import type { Database } from '@/db/client';
import { getLogger } from '@/lib/logger';
import { recordAuditEvent } from './audit';
import { requestContextOf } from './request-context';

/**
 * better-auth's error codes (@better-auth/core BASE_ERROR_CODES) for a request refused by its Origin/CSRF
 * check (api/middlewares/origin-check): a foreign Origin, none at all, a cross-site navigation sign-in.
 */
const originRefusalCodes = new Set(['INVALID_ORIGIN', 'MISSING_OR_NULL_ORIGIN', 'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED']);

/** Longest Origin header kept in a row: enough for any real origin, not a place to store what a client sends. */
const maximumOriginLength = 200;

/**
 * After better-auth answered a request under /api/auth: a 403 from its Origin check and every 429 of its rate
 * limiter become a 'denied' audit row (path, request id, client address; never the body, which may hold a
 * password or a code). better-auth refuses these before it knows a user, so the row has no actor.
 * Never throws: the answer goes out even if the row cannot be written (that failure is logged).
 */
export async function auditAuthRefusal(options: { database: Database; request: Request; response: Response }): Promise<void> {
  const { request, response } = options;
  if (response.status !== 403 && response.status !== 429) return;
  try {
    const path = new URL(request.url).pathname;
    const event = { outcome: 'denied' as const, ...requestContextOf(request.headers) };
    if (response.status === 429) {
      await recordAuditEvent(options.database, { ...event, action: 'auth.rate-limited', details: { path, method: request.method } });
      return;
    }
    const code = await errorCodeOf(response);
    if (code === null || !originRefusalCodes.has(code)) return;
    await recordAuditEvent(options.database, {
      ...event,
      action: 'auth.origin-refused',
      details: { path, method: request.method, code, origin: request.headers.get('origin')?.slice(0, maximumOriginLength) ?? null },
    });
  } catch (error) {
    getLogger().error({ err: error, status: response.status }, 'An auth refusal could not be audited');
  }
}

/** The `code` of better-auth's JSON error body, read from a copy so the response itself stays unread. */
async function errorCodeOf(response: Response): Promise<string | null> {
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return null;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  return typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : null;
}
