export const errorCodes = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export type FieldErrors = Record<string, string>;

/** The spec's message for a call that needs a signed-in user (seed-spec §5); the browser shows it too. */
export const noUserLoggedIn = 'No user logged in';

/** The one error type use cases throw; route handlers turn it into an HTTP answer. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;

  constructor(code: ErrorCode, message: string, options: { fieldErrors?: FieldErrors; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.fieldErrors = options.fieldErrors;
  }

  get httpStatus(): number {
    return errorCodes[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
