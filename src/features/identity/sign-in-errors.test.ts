import { phoneNumber, TWO_FACTOR_ERROR_CODES } from 'better-auth/plugins';
import { describe, expect, it } from 'vitest';
import { describeSignInError, signInErrorCodes } from './sign-in-errors';

const specCodes = [
  'argument-error',
  'internal-error',
  'network-request-failed',
  'popup-blocked',
  'popup-closed-by-user',
  'cancelled-popup-request',
  'web-storage-unsupported',
  'unauthorized-domain',
  'missing-multi-factor-info',
  'operation-not-supported-in-this-environment',
  'invalid-api-key',
  'invalid-persistence-type',
];

describe('describeSignInError', () => {
  it('has a sentence for every sign-in error code of seed-spec §8', () => {
    for (const code of specCodes) {
      expect(signInErrorCodes).toContain(code);
      const sentence = describeSignInError(code);
      expect(sentence).not.toContain(code);
      expect(sentence).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('never shows a raw code, even for unknown ones', () => {
    expect(describeSignInError({ code: 'SOMETHING_NEW' })).toBe('Signing in did not work. Please try again.');
    expect(describeSignInError({ status: 429 })).toMatch(/Too many attempts/);
    expect(describeSignInError({ code: 'INVALID_EMAIL_OR_PASSWORD' })).toMatch(/do not match/);
  });

  it('has a sentence for every two-factor and phone-number error better-auth can answer', () => {
    for (const code of [...Object.keys(TWO_FACTOR_ERROR_CODES), ...Object.keys(phoneNumber().$ERROR_CODES)]) {
      expect(describeSignInError({ code }), code).not.toBe('Signing in did not work. Please try again.');
    }
    // The lockout (429) says how long it lasts, not "wait a minute" like a request limit.
    expect(describeSignInError({ code: 'ACCOUNT_TEMPORARILY_LOCKED', status: 429 })).toMatch(/locked for 15 minutes/);
  });
});
