import 'server-only';
import { NextResponse } from 'next/server';
import { AppError, isAppError } from '@/lib/errors';
import { getLogger } from '@/lib/logger';

export type ErrorBody = {
  success: false;
  error: { code: string; message: string; fieldErrors?: Record<string, string> };
};

const noStore = { 'Cache-Control': 'no-store' };

export function jsonResponse<T>(body: T, status = 200): NextResponse<T> {
  return NextResponse.json(body, { status, headers: noStore });
}

/** Turns any thrown value into a JSON answer: AppErrors keep their code and message; anything else is logged and hidden. */
export function errorResponse(error: unknown, extra: Record<string, unknown> = {}): NextResponse {
  const appError = isAppError(error)
    ? error
    : new AppError('internal', 'Something went wrong on our side. Please try again later.', { cause: error });
  if (!isAppError(error) || appError.code === 'internal' || appError.code === 'unavailable') {
    getLogger().error({ errorName: (error as Error)?.name, errorCode: appError.code }, appError.message);
  }
  const body: ErrorBody = {
    success: false,
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.fieldErrors === undefined ? {} : { fieldErrors: appError.fieldErrors }),
    },
  };
  return NextResponse.json({ ...body, ...extra }, { status: appError.httpStatus, headers: noStore });
}

/** A CSV download (a string or a stream): never cached, never sniffed as anything else. */
export function csvDownloadResponse(body: BodyInit, filename: string): Response {
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
