import { getDatabase } from '@/db/client';
import { getJobProgress } from '@/lib/server/get-job-progress';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

// Progress of a background job (a JobDto), for the page that started it: its creator or an admin may read it.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const user = await getSessionUser(request.headers);
    return jsonResponse(
      await getJobProgress({ database: getDatabase(), actor: user, id: (await params).id, request: requestContextOf(request.headers) }),
    );
  } catch (error) {
    return errorResponse(error);
  }
}
