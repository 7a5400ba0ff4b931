import { getDatabase } from '@/db/client';
import { parseMessageFilterQuery, streamLiveMessageFeed } from '@/features/message-data-collection';
import { errorResponse } from '@/lib/server/http';
import { getSessionUser } from '@/lib/server/session';

// The live feed of the message data collection page, as Server-Sent Events (scope and filters from the query).
export async function GET(request: Request) {
  try {
    const user = await getSessionUser(request.headers);
    const { filters } = parseMessageFilterQuery(Object.fromEntries(new URL(request.url).searchParams));
    const stream = await streamLiveMessageFeed({
      database: getDatabase(),
      actor: user,
      filters,
      // A periodic check, not activity: an open tab must not keep an idle session alive.
      sessionIsValid: async () => (await getSessionUser(request.headers, { recordActivity: false })) !== null,
      signal: request.signal,
    });
    return new Response(stream, {
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
