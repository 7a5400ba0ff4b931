import { getDatabase } from '@/db/client';
import { exportTrialAnalysisDataset, trialRouteParamsSchema } from '@/features/trials';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { csvDownloadResponse, errorResponse } from '@/lib/server/http';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

// The trial's analysis dataset as CSV ("Download CSV"): clinicians, government officials and admins, once the trial is complete.
export async function GET(request: Request, { params }: { params: Promise<{ trialId: string }> }) {
  try {
    // Signed in before anything else (a visitor learns nothing about ids); the use case authorises.
    const user = requireActor(await getSessionUser(request.headers));
    const { trialId } = parseInput(trialRouteParamsSchema, await params, { label: 'The trial' });
    const { filename, csv } = await exportTrialAnalysisDataset({
      database: getDatabase(),
      trialId,
      actor: user,
      request: requestContextOf(request.headers),
      now: new Date(),
    });
    return csvDownloadResponse(csv, filename);
  } catch (error) {
    return errorResponse(error);
  }
}
