import 'server-only';
import { isAppError } from '@/lib/errors';
import { getLogger } from '@/lib/logger';

/** What a server action answers: the DTO, or an error the client can show (never a stack trace). */
export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string; fieldErrors?: Record<string, string> } };

export async function toActionResult<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (isAppError(error)) {
      return {
        ok: false,
        error: { code: error.code, message: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) },
      };
    }
    getLogger().error({ errorName: (error as Error)?.name }, 'server action failed');
    return { ok: false, error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } };
  }
}
