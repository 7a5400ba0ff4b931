import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import {
  authoriseImport,
  csvMappingOfSearchParams,
  importContentTypes,
  importTooLargeHint,
  maximumImportBytes,
  queueImport,
} from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedText } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';
import { requireSameOrigin } from '@/lib/server/require-same-origin';
import { getSessionUser } from '@/lib/server/session';

// An uploaded FHIR file or pharmacy CSV (the raw file as the body, sent as its media type), queued for import
// as a background job: answers { jobId }. ?format=fhir|csv&name=FILE; for CSV ?dateFormat=, ?medicationCodes= and ?<column>Column=.
export async function POST(request: NextRequest) {
  try {
    requireSameOrigin(request);
    const context = requestContextOf(request.headers);
    const database = getDatabase();
    // Refuse before reading up to 50 MB from someone who may not import.
    const actor = await authoriseImport({
      database,
      actor: await getSessionUser(request.headers),
      action: 'data-import.queue',
      request: context,
    });
    const text = await readBoundedText(request, {
      limitBytes: maximumImportBytes,
      contentTypes: [...importContentTypes.fhir, ...importContentTypes.csv],
      tooLargeHint: importTooLargeHint,
    });
    const parameters = request.nextUrl.searchParams;
    const queued = await queueImport({
      database,
      actor,
      request: context,
      input: {
        format: parameters.get('format'),
        fileName: parameters.get('name') ?? 'upload',
        file: text,
        mapping: csvMappingOfSearchParams(parameters),
      },
    });
    return jsonResponse(queued, 202);
  } catch (error) {
    return errorResponse(error);
  }
}
