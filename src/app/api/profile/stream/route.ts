import { getDatabase } from '@/db/client';
import { streamProfileDocument } from '@/features/identity/server/stream-profile-document';
import { AppError } from '@/lib/errors';
import { errorResponse } from '@/lib/server/http';
import { getProfileChangeHub } from '@/lib/server/profile-changes';
import { getSessionUser } from '@/lib/server/session';

// The live profile subscription of seed-spec §4/§7, as Server-Sent Events.
export async function GET(request: Request) {
  try {
    const user = await getSessionUser(request.headers);
    if (user === null) throw new AppError('unauthenticated', 'No user logged in');
    const stream = streamProfileDocument({
      database: getDatabase(),
      hub: await getProfileChangeHub(),
      user,
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
