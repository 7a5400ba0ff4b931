import { describe, expect, it } from 'vitest';
import { EnvironmentError, parseEnvironment } from './env';

describe('parseEnvironment', () => {
  it('gives the documented defaults for an empty environment', () => {
    const environment = parseEnvironment({});
    expect(environment).toMatchObject({
      PORT: 3000,
      DATA_DIR: './.data',
      PRODUCT_NAME: 'Medaptive',
      CONTACT_RATE_LIMIT_PER_MINUTE: 5,
      TRUSTED_PROXIES: [],
    });
    expect(environment.DATABASE_URL).toBeUndefined();
    expect(environment.SMTP_URL).toBeUndefined();
  });

  it('treats empty strings as unset and splits the trusted proxies', () => {
    const environment = parseEnvironment({ DATABASE_URL: '', SMTP_URL: ' ', TRUSTED_PROXIES: '10.0.0.1, ::1,' });
    expect(environment.DATABASE_URL).toBeUndefined();
    expect(environment.SMTP_URL).toBeUndefined();
    expect(environment.TRUSTED_PROXIES).toEqual(['10.0.0.1', '::1']);
  });

  it('names every bad variable in one readable error', () => {
    let caught: unknown;
    try {
      parseEnvironment({ PORT: 'eighty', DATABASE_URL: 'mysql://x', CONTACT_EMAIL_TO: 'nobody' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvironmentError);
    const message = (caught as EnvironmentError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL: must start with postgres://');
    expect(message).toContain('CONTACT_EMAIL_TO');
    expect((caught as EnvironmentError).problems).toHaveLength(3);
  });
});
