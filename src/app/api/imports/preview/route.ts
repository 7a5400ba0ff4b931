import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import {
  authoriseImport,
  csvMappingOfSearchParams,
  importContentTypes,
  importTooLargeHint,
  maximumImportBytes,
  previewCsvImport,
} from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { readBoundedText } from '@/lib/server/read-bounded-body';
import { requestContextOf } from '@/lib/server/request-context';
import { requireSameOrigin } from '@/lib/server/require-same-origin';
import { getSessionUser } from '@/lib/server/session';

export const dynamic = 'force-dynamic';

// A pharmacy CSV (the raw file as the body, text/csv) read as an import would read it, storing nothing: answers
// the preview (first rows, guessed date format, every problem). ?dateFormat=, ?medicationCodes=, ?<column>Column=.
export async function POST(request: NextRequest) {
  try {
    requireSameOrigin(request);
    const context = requestContextOf(request.headers);
    const database = getDatabase();
    // Refuse before reading up to 50 MB from someone who may not import.
    const actor = await authoriseImport({
      database,
      actor: await getSessionUser(request.headers),
      action: 'data-import.preview',
      request: context,
    });
    const text = await readBoundedText(request, {
      limitBytes: maximumImportBytes,
      contentTypes: importContentTypes.csv,
      tooLargeHint: importTooLargeHint,
    });
    const preview = await previewCsvImport({
      database,
      actor,
      request: context,
      input: { text, mapping: csvMappingOfSearchParams(request.nextUrl.searchParams) },
    });
    return jsonResponse(preview);
  } catch (error) {
    return errorResponse(error);
  }
}
