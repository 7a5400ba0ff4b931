import type { NextRequest } from 'next/server';
import { ImportRefusedError, importContentTypes, importFhir, readImportUpload } from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

// A FHIR R4 Bundle, NDJSON or one resource as the body (application/fhir+json, application/fhir+ndjson, …);
// ?source=NAME keys the rows under another data source. Answers the import report.
export async function POST(request: NextRequest) {
  try {
    const { database, actor, context, text } = await readImportUpload({
      request,
      action: 'data-import.fhir',
      contentTypes: importContentTypes.fhir,
    });
    const report = await importFhir({
      database,
      actor,
      text,
      source: request.nextUrl.searchParams.get('source') ?? undefined,
      request: context,
    });
    return jsonResponse(report);
  } catch (error) {
    // A refused file also answers its problems as data ({ line | resource, field, message }), for clients that list them.
    return errorResponse(
      error,
      error instanceof ImportRefusedError ? { problems: error.problems, totalProblems: error.totalProblems } : {},
    );
  }
}
