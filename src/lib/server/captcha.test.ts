import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { solvedCaptchaPayload } from './auth-testing';
import { verifyCaptchaPayload } from './captcha';

describe.each(testDatabaseBackends())('ALTCHA captcha on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('accepts a solved challenge once, and refuses a replay', async () => {
    const payload = await solvedCaptchaPayload('installation-secret-of-enough-length');
    await expect(
      verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload }),
    ).resolves.toEqual({ verified: true });
    await expect(
      verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload }),
    ).resolves.toEqual({ verified: false });
  });

  it('refuses a missing, malformed or foreign payload', async () => {
    const foreign = await solvedCaptchaPayload('another-installation-secret-entirely');
    for (const payload of [undefined, '', 'not base64 json', foreign]) {
      await expect(
        verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload }),
      ).resolves.toEqual({ verified: false });
    }
  });
});
