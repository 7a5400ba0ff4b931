import { getDatabase } from '@/db/client';
import { getLabRunProgress } from '@/features/policy-lab';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { getSessionUser } from '@/lib/server/session';

// Progress of a lab run (without its summary) for the lab pages, polled while it runs; any signed-in user.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const user = await getSessionUser(request.headers);
    return jsonResponse(await getLabRunProgress({ database: getDatabase(), actor: user, id: (await params).id }));
  } catch (error) {
    return errorResponse(error);
  }
}
