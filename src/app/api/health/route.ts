import { getDatabaseConnection } from '@/db/client';
import { checkHealth } from '@/features/health/server/check-health';
import { errorResponse, jsonResponse } from '@/lib/server/http';

export async function GET() {
  const connection = getDatabaseConnection();
  try {
    return jsonResponse(await checkHealth({ connection }));
  } catch (error) {
    return errorResponse(error, { status: 'error', database: connection.kind });
  }
}
