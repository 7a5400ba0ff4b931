import { getDatabase } from '@/db/client';
import { maximumDoseEventBodyBytes } from '@/features/dose-events/schemas';
import { authenticateDoseEventSource } from '@/features/dose-events/server/authenticate-dose-event-source';
import { DoseEventBatchRejected, recordDoseEvents } from '@/features/dose-events/server/record-dose-events';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedJson } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';

// Dose events from smart pill bottles and apps: Authorization: Bearer <source API key>, Content-Type:
// application/json, body { events: [...] } (at most 1 MB). No Origin check here, unlike the cookie routes: the
// caller is authenticated by a header a browser never adds by itself, so another site cannot borrow it.
export async function POST(request: Request) {
  try {
    const database = getDatabase();
    const authorization = request.headers.get('authorization') ?? '';
    const apiKey = authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : null;
    // The key first: nobody else gets to send a body the server reads.
    const source = await authenticateDoseEventSource({ database, apiKey, request: requestContextOf(request.headers) });
    const body = await readBoundedJson(request, {
      limitBytes: maximumDoseEventBodyBytes,
      contentTypes: ['application/json'],
      tooLargeHint: 'Send fewer events per request.',
      expected: '{ "events": [ … ] }',
    });
    return jsonResponse(await recordDoseEvents({ database, source, body }));
  } catch (error) {
    return errorResponse(error, error instanceof DoseEventBatchRejected ? { rejected: error.rejected } : {});
  }
}
