import { describe, expect, it } from 'vitest';
import { EnvironmentError, isLoopbackUrl, parseEnvironment } from './env';

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

  describe('DEV_OUTBOX in a production build', () => {
    const production = (variables: Record<string, string>) => () =>
      parseEnvironment({ NODE_ENV: 'production', DEV_OUTBOX: 'true', ...variables });

    it('is refused at an address others use, naming DEV_OUTBOX', () => {
      for (const PUBLIC_URL of [
        'https://medaptive.example.org',
        'http://192.168.1.20:3000',
        'http://localhost.example.org',
        'http://127.0.0.1.nip.io',
      ]) {
        expect(production({ PUBLIC_URL })).toThrow(EnvironmentError);
        expect(production({ PUBLIC_URL })).toThrow(/DEV_OUTBOX: must not be true in production unless PUBLIC_URL is a loopback address/);
      }
    });

    it('is allowed on loopback: PUBLIC_URL unset (localhost), the end-to-end servers’ 127.0.0.1, ::1', () => {
      expect(production({})().DEV_OUTBOX).toBe(true);
      for (const PUBLIC_URL of ['http://localhost:3000', 'http://127.0.0.1:3210', 'http://[::1]:3000', 'http://LOCALHOST'])
        expect(production({ PUBLIC_URL })().DEV_OUTBOX).toBe(true);
    });

    it('listens on loopback only: 127.0.0.1 by default, another address refused naming HOST', () => {
      expect(production({})().HOST).toBe('127.0.0.1');
      for (const HOST of ['127.0.0.1', '::1', 'localhost']) expect(production({ HOST })().HOST).toBe(HOST);
      for (const HOST of ['0.0.0.0', '::', '192.168.1.20'])
        expect(production({ HOST })).toThrow(
          /HOST: must be a loopback address \(127\.0\.0\.1, ::1 or localhost\) while DEV_OUTBOX is true/,
        );
      // Without the outbox, every interface by default, as before.
      expect(parseEnvironment({ NODE_ENV: 'production' }).HOST).toBe('0.0.0.0');
      expect(parseEnvironment({ NODE_ENV: 'development', DEV_OUTBOX: 'true' }).HOST).toBe('0.0.0.0');
    });

    it('is unaffected elsewhere: off in production, or on under development and tests', () => {
      expect(parseEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'https://medaptive.example.org' }).DEV_OUTBOX).toBe(false);
      for (const NODE_ENV of ['development', 'test'])
        expect(parseEnvironment({ NODE_ENV, DEV_OUTBOX: 'true', PUBLIC_URL: 'https://medaptive.example.org' }).DEV_OUTBOX).toBe(true);
    });
  });

  it('tells a loopback URL from one that only looks like it', () => {
    expect(['http://localhost:3000', 'http://127.0.0.1', 'http://127.1:3000', 'http://[::1]:3000'].map(isLoopbackUrl)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['http://localhost.evil.test', 'http://10.0.0.1', 'not a url', 'http://[::2]'].map(isLoopbackUrl)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
