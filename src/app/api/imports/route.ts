import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import { enqueueImport, maximumUploadBytes } from '@/features/data-sources/server/enqueue-import';
import { AppError } from '@/lib/errors';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { getSessionUser } from '@/lib/server/session';

// An uploaded FHIR file or pharmacy CSV (the raw file as the body), queued for import: answers { jobId }.
export async function POST(request: NextRequest) {
  try {
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > maximumUploadBytes) throw new AppError('validation', 'The file is larger than 50 MB; split it and import the parts.');
    const parameters = request.nextUrl.searchParams;
    const jobId = await enqueueImport({
      database: getDatabase(),
      actor: await getSessionUser(request.headers),
      format: request.nextUrl.searchParams.get('format'),
      fileName: request.nextUrl.searchParams.get('name') ?? 'upload',
      text: await request.text(),
      mapping: {
        dateFormat: parameters.get('dateFormat') || undefined,
        columns: Object.fromEntries(
          (['patientId', 'date', 'daysSupply', 'dosesPerDay', 'medicationClass'] as const).flatMap((column) => {
            const value = parameters.get(`${column}Column`);
            return value ? [[column, value]] : [];
          }),
        ),
      },
    });
    return jsonResponse(jobId, 202);
  } catch (error) {
    return errorResponse(error);
  }
}
