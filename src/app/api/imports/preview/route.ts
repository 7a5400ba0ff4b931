import type { NextRequest } from 'next/server';
import { csvMappingOfSearchParams, importContentTypes, previewCsvImport, readImportUpload } from '@/features/data-import';
import { errorResponse, jsonResponse } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

// A pharmacy CSV (the raw file as the body, text/csv) read as an import would read it, storing nothing: answers
// the preview (first rows, guessed date format, every problem). ?dateFormat=, ?medicationCodes=, ?<column>Column=.
export async function POST(request: NextRequest) {
  try {
    const { database, actor, context, text } = await readImportUpload({
      request,
      action: 'data-import.preview',
      contentTypes: importContentTypes.csv,
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
