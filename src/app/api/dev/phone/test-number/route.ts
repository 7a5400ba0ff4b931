import { getDatabase } from '@/db/client';
import { giveTestNumber } from '@/features/messaging-webhooks';
import { getEnvironment } from '@/lib/env';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedJson } from '@/lib/server/read-bounded-body';
import { requireSameOrigin } from '@/lib/server/require-same-origin';

// Development and end-to-end tests only (404 unless the local outbox is served): gives a patient's account a
// verified test number, so /dev/phone can play that patient.
export async function POST(request: Request) {
  try {
    requireSameOrigin(request);
    const input = await readBoundedJson(request, { limitBytes: 1024, contentTypes: ['application/json'], expected: 'a JSON object' });
    return jsonResponse(await giveTestNumber({ database: getDatabase(), environment: getEnvironment(), input }));
  } catch (error) {
    return errorResponse(error);
  }
}
