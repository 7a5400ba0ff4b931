import { toNextJsHandler } from 'better-auth/next-js';
import { getDatabase } from '@/db/client';
import { auditAuthRefusal } from '@/lib/server/audit-auth-refusal';
import { getAuth } from '@/lib/server/auth';
import { errorResponse } from '@/lib/server/http';
import { readBoundedBody } from '@/lib/server/read-bounded-body';

/** Sign-in, sign-up, code and settings requests are small JSON; nothing here needs more. */
const maximumAuthBodyBytes = 64 * 1024;

// better-auth's endpoints (sign-in flows, two-factor, sessions) under /api/auth. better-auth checks the Origin
// of requests that carry cookies itself (trustedOrigins = PUBLIC_URL); its Origin refusals and rate-limit
// answers are audited here, as it has no hook for them.
export async function GET(request: Request) {
  const response = await toNextJsHandler(await getAuth()).GET(request);
  await auditAuthRefusal({ database: getDatabase(), request, response });
  return response;
}

export async function POST(request: Request) {
  let bounded: Request;
  try {
    // Read at most 64 KB before better-auth parses anything (it would read any size), then hand it the same
    // request with that body.
    const body = await readBoundedBody(request, { limitBytes: maximumAuthBodyBytes });
    bounded = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: body.byteLength === 0 ? null : body,
      signal: request.signal,
    });
  } catch (error) {
    return errorResponse(error);
  }
  const response = await toNextJsHandler(await getAuth()).POST(bounded);
  await auditAuthRefusal({ database: getDatabase(), request: bounded, response });
  return response;
}
