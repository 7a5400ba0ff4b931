import { getDatabase } from '@/db/client';
import { listOutboxMessages } from '@/features/outbox/server/list-outbox-messages';
import { getEnvironment } from '@/lib/env';
import { errorResponse, jsonResponse } from '@/lib/server/http';

// The local outbox as JSON, for development and end-to-end tests; 404 in production unless DEV_OUTBOX=true.
export async function GET() {
  try {
    return jsonResponse({ messages: await listOutboxMessages({ database: getDatabase(), environment: getEnvironment() }) });
  } catch (error) {
    return errorResponse(error);
  }
}
