import type { NextRequest } from 'next/server';
import { csvMappingOfSearchParams, importContentTypes, queueImport, readImportUpload } from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';

// An uploaded FHIR file or pharmacy CSV (the raw file as the body, sent as its media type), queued for import
// as a background job: answers { jobId }. ?format=fhir|csv&name=FILE; for CSV ?dateFormat=, ?medicationCodes= and ?<column>Column=.
export async function POST(request: NextRequest) {
  try {
    const { database, actor, context, text } = await readImportUpload({
      request,
      action: 'data-import.queue',
      contentTypes: [...importContentTypes.fhir, ...importContentTypes.csv],
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
