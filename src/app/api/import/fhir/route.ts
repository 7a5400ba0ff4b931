import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import {
  ImportRefusedError,
  authoriseImport,
  importContentTypes,
  importFhir,
  importTooLargeHint,
  maximumImportBytes,
} from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedText } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';
import { requireSameOrigin } from '@/lib/server/require-same-origin';
import { getSessionUser } from '@/lib/server/session';

export const dynamic = 'force-dynamic';

// A FHIR R4 Bundle, NDJSON or one resource as the body (application/fhir+json, application/fhir+ndjson, …);
// ?source=NAME keys the rows under another data source. Answers the import report.
export async function POST(request: NextRequest) {
  try {
    requireSameOrigin(request);
    const context = requestContextOf(request.headers);
    const database = getDatabase();
    // Refuse before reading up to 50 MB from someone who may not import.
    const actor = await authoriseImport({
      database,
      actor: await getSessionUser(request.headers),
      action: 'data-import.fhir',
      request: context,
    });
    const text = await readBoundedText(request, {
      limitBytes: maximumImportBytes,
      contentTypes: importContentTypes.fhir,
      tooLargeHint: importTooLargeHint,
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
