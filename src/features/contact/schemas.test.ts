import { describe, expect, it } from 'vitest';
import { contactMessageSchema } from './schemas';

const valid = {
  contactName: ' Ada Lovelace ',
  contactEmail: 'ada@example.org',
  contactNumber: '',
  subject: 'Pilot in our clinic',
  message: 'Could we talk about a pilot?',
};

function errorFor(input: Record<string, unknown>, field: string): string | undefined {
  const result = contactMessageSchema.safeParse(input);
  return result.success ? undefined : result.error.issues.find((issue) => issue.path[0] === field)?.message;
}

describe('contactMessageSchema', () => {
  it('accepts a valid message, trims it and drops an empty phone number', () => {
    const parsed = contactMessageSchema.parse(valid);
    expect(parsed.contactName).toBe('Ada Lovelace');
    expect(parsed.contactNumber).toBeUndefined();
  });

  it.each(['+44 20 7946 0958', '(555) 123-4567', '0201234567'])('accepts the phone number %s', (number) => {
    expect(errorFor({ ...valid, contactNumber: number }, 'contactNumber')).toBeUndefined();
  });

  it.each(['12', 'call me', '+1 234 567 890 123 456 7', '555-CALL-NOW'])('rejects the phone number %s', (number) => {
    expect(errorFor({ ...valid, contactNumber: number }, 'contactNumber')).toMatch(/^Phone Number/);
  });

  it('names each missing required field', () => {
    expect(errorFor({ ...valid, contactName: '   ' }, 'contactName')).toBe('Your Name is required.');
    expect(errorFor({ ...valid, subject: undefined }, 'subject')).toBe('Subject is required.');
    expect(errorFor({ ...valid, message: '' }, 'message')).toBe('Message is required.');
  });

  it('rejects a malformed e-mail and over-long fields', () => {
    expect(errorFor({ ...valid, contactEmail: 'ada@' }, 'contactEmail')).toBe('Email must be a valid e-mail address.');
    expect(errorFor({ ...valid, message: 'x'.repeat(5001) }, 'message')).toBe('Message must be at most 5000 characters.');
    expect(errorFor({ ...valid, subject: 'x'.repeat(201) }, 'subject')).toBe('Subject must be at most 200 characters.');
  });
});
