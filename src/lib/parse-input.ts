import { z } from '@/lib/zod';
import { AppError, type FieldErrors } from './errors';

/**
 * The one way to validate input at a boundary: parses with zod and, on failure, throws an AppError
 * ('validation', HTTP 400) that names every field at fault (zod 4's `z.flattenError`), first message per field.
 * `label` names the whole input in the summary message ("The contact form", "The dose-event batch").
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, options: { label?: string } = {}): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error, options.label);
}

/** Field errors of a failed parse: every field at fault with its first message (the form shows one line per field). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const flattened = z.flattenError(error);
  const fieldErrors: FieldErrors = {};
  for (const [field, messages] of Object.entries(flattened.fieldErrors) as [string, string[] | undefined][]) {
    const first = messages?.[0];
    if (first !== undefined) fieldErrors[field] = first;
  }
  // A key a strict object does not allow is a field at fault too (flattenError files it under the object).
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    for (const key of issue.keys) fieldErrors[issue.path.length > 0 ? String(issue.path[0]) : key] ??= issue.message;
  }
  return fieldErrors;
}

/** The AppError for a failed parse; its message lists every problem ("field: message; …"). */
export function validationError(error: z.ZodError, label = 'The input'): AppError {
  const fieldErrors = fieldErrorsOf(error);
  const problems = error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`,
  );
  const message = `${label} is not valid: ${problems.join('; ')}`;
  return new AppError('validation', message, Object.keys(fieldErrors).length > 0 ? { fieldErrors } : {});
}
