import { getDatabase } from '@/db/client';
import { recordDoseEvents } from '@/features/dose-events/server/record-dose-events';
import { AppError } from '@/lib/errors';
import { errorResponse, jsonResponse } from '@/lib/server/http';

const maximumBodyBytes = 2 * 1024 * 1024;

// Dose events from smart pill bottles and apps: Authorization: Bearer <source API key>, JSON { events: [...] }.
export async function POST(request: Request) {
  try {
    const authorization = request.headers.get('authorization') ?? '';
    const apiKey = authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : null;
    const text = await request.text();
    if (text.length > maximumBodyBytes) throw new AppError('validation', 'The batch is larger than 2 MB; send fewer events per request.');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('validation', 'The body must be JSON: { "events": [ … ] }.');
    }
    return jsonResponse(await recordDoseEvents({ database: getDatabase(), apiKey, body }));
  } catch (error) {
    return errorResponse(error);
  }
}
