import { getDatabase } from '@/db/client';
import { AppError } from '@/lib/errors';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { getJob } from '@/lib/server/jobs';
import { getSessionUser } from '@/lib/server/session';

// Progress of a background job, for the page that started it: its creator or an admin may read it.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const user = await getSessionUser(request.headers);
    if (user === null) throw new AppError('unauthenticated', 'No user logged in');
    const job = await getJob({ database: getDatabase(), id: (await params).id });
    if (job === null || (job.createdBy !== user.id && user.role !== 'admin')) throw new AppError('not_found', 'There is no such job.');
    // The payload (an uploaded file) and the checkpoint stay on the server.
    return jsonResponse({
      id: job.id,
      kind: job.kind,
      status: job.status,
      progressDone: job.progressDone,
      progressTotal: job.progressTotal,
      rate: job.rate,
      result: job.result,
      error: job.error,
      createdAt: job.createdAt,
      finishedAt: job.finishedAt,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
