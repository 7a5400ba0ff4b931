import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import { maximumImportBytes } from '@/features/data-import/schemas';
import { authoriseImport } from '@/features/data-import/server/authorise-import';
import { importFhir } from '@/features/data-import/server/import-fhir';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { getSessionUser } from '@/lib/server/session';

export const dynamic = 'force-dynamic';

const tooLargeMessage = `The file is larger than ${maximumImportBytes / 1024 / 1024} MB. Split it (NDJSON splits at any line) or use the command line: npm run --silent cli -- import fhir FILE.`;

function tooLarge() {
  return jsonResponse({ success: false, error: { code: 'payload_too_large', message: tooLargeMessage } }, 413);
}

/** The body as text, or null as soon as it passes the limit (a lying or absent Content-Length included). */
async function readBodyWithin(request: NextRequest, limit: number): Promise<string | null> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// A FHIR R4 Bundle, NDJSON or one resource as the body (application/fhir+json, application/fhir+ndjson, …);
// ?source=NAME keys the rows under another data source. Answers the import report.
export async function POST(request: NextRequest) {
  try {
    const database = getDatabase();
    const actor = await getSessionUser(request.headers);
    // Refuse before reading up to 50 MB from someone who may not import.
    await authoriseImport({ database, actor, action: 'data-import.fhir' });
    if (Number(request.headers.get('content-length') ?? 0) > maximumImportBytes) return tooLarge();
    const text = await readBodyWithin(request, maximumImportBytes);
    if (text === null) return tooLarge();
    const report = await importFhir({ database, actor, text, source: request.nextUrl.searchParams.get('source') ?? undefined });
    return jsonResponse(report);
  } catch (error) {
    return errorResponse(error);
  }
}
