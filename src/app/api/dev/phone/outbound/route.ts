import { getDatabase } from '@/db/client';
import { recordLocalOutbound } from '@/features/messaging-webhooks';
import { getEnvironment } from '@/lib/env';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedJson } from '@/lib/server/read-bounded-body';
import { requireSameOrigin } from '@/lib/server/require-same-origin';

// Development and end-to-end tests only (404 unless the local outbox is served): stores an outbound message as
// the local channel would, so the reply path can be tried without the daily loop.
export async function POST(request: Request) {
  try {
    requireSameOrigin(request);
    const input = await readBoundedJson(request, { limitBytes: 8 * 1024, contentTypes: ['application/json'], expected: 'a JSON object' });
    return jsonResponse(await recordLocalOutbound({ database: getDatabase(), environment: getEnvironment(), input, now: new Date() }));
  } catch (error) {
    return errorResponse(error);
  }
}
