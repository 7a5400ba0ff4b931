import { getDatabase } from '@/db/client';
import { exportTrialAnalysisDataset } from '@/features/trials';
import { csvDownloadResponse, errorResponse } from '@/lib/server/http';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

// The trial's analysis dataset as CSV ("Download CSV"): clinicians, government officials and admins, once the trial is complete.
export async function GET(request: Request, { params }: { params: Promise<{ trialId: string }> }) {
  try {
    const user = await getSessionUser(request.headers);
    const { filename, csv } = await exportTrialAnalysisDataset({
      database: getDatabase(),
      trialId: (await params).trialId,
      actor: user,
      request: requestContextOf(request.headers),
      now: new Date(),
    });
    return csvDownloadResponse(csv, filename);
  } catch (error) {
    return errorResponse(error);
  }
}
