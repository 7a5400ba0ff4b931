import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { createCaptchaChallenge, verifyCaptchaPayload } from './captcha';

describe.each(testDatabaseBackends())('ALTCHA captcha on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function solvedPayload(secret: string): Promise<string> {
    const challenge = await createCaptchaChallenge({ secret });
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  it('accepts a solved challenge once, and refuses a replay', async () => {
    const payload = await solvedPayload('installation-secret-of-enough-length');
    await expect(verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload })).resolves.toEqual({ verified: true });
    await expect(verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload })).resolves.toEqual({ verified: false });
  });

  it('refuses a missing, malformed or foreign payload', async () => {
    const foreign = await solvedPayload('another-installation-secret-entirely');
    for (const payload of [undefined, '', 'not base64 json', foreign]) {
      await expect(verifyCaptchaPayload({ database: database.database, secret: 'installation-secret-of-enough-length', payload })).resolves.toEqual({ verified: false });
    }
  });
});
