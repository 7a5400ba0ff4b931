import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { consumeRateLimit } from './rate-limit';

describe.each(testDatabaseBackends())('consumeRateLimit on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const now = new Date('2026-11-22T10:00:30Z');
  const consume = (subject: string, at: Date = now) =>
    consumeRateLimit({ database: database.database, scope: 'test', subject, limit: 3, windowSeconds: 60, now: at });

  it('allows the limit within a window and refuses the next, per subject', async () => {
    const results = [];
    for (let index = 0; index < 4; index += 1) results.push(await consume('198.51.100.1'));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ hits: 4, limit: 3, retryAfterSeconds: 30 });
    expect((await consume('198.51.100.2')).allowed).toBe(true);
  });

  it('starts again in the next window', async () => {
    for (let index = 0; index < 4; index += 1) await consume('198.51.100.1');
    expect((await consume('198.51.100.1', new Date('2026-11-22T10:01:00Z'))).allowed).toBe(true);
  });

  it('counts concurrent hits exactly once each', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => consume('198.51.100.3')));
    expect(results.filter((result) => result.allowed)).toHaveLength(3);
    expect(results.map((result) => result.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('stores only a hash of the subject and drops counters older than a day', async () => {
    await consume('198.51.100.4', new Date('2026-11-20T10:00:00Z'));
    await consume('198.51.100.4');
    const rows = await database.database.select({ key: rateLimitCounters.key }).from(rateLimitCounters);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).not.toContain('198.51.100.4');
  });
});
