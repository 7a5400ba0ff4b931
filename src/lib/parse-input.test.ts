import { describe, expect, it } from 'vitest';
import { z } from '@/lib/zod';
import { isAppError } from './errors';
import { fieldErrorsOf, parseInput } from './parse-input';

const schema = z.object({ name: z.string().min(1, 'Enter a name.'), age: z.number().int('Whole years.') });

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'a', age: 3 })).toEqual({ name: 'a', age: 3 });
  });

  it('names every field at fault, not only the first', () => {
    let thrown: unknown;
    try {
      parseInput(schema, { name: '', age: 1.5 }, { label: 'The form' });
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown)).toBe(true);
    if (!isAppError(thrown)) return;
    expect(thrown.code).toBe('validation');
    expect(thrown.fieldErrors).toEqual({ name: 'Enter a name.', age: 'Whole years.' });
    expect(thrown.message).toBe('The form is not valid: name: Enter a name.; age: Whole years.');
  });

  it('keeps the first message per field', () => {
    const result = z.object({ code: z.string().min(3, 'Too short.').regex(/^\d+$/, 'Digits only.') }).safeParse({ code: 'a' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({ code: 'Too short.' });
  });

  it('names a key a strict object does not allow as a field at fault', () => {
    const strict = z.strictObject(
      { name: z.string() },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} cannot be set here.` : undefined) },
    );
    const result = strict.safeParse({ name: 'a', role: 'admin' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({ role: 'role cannot be set here.' });
  });
});
