import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { consumeRateLimit, consumeSlidingRateLimit } from './rate-limit';

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

  it('a sliding limit of 1 a minute refuses a second hit across a minute boundary, and allows it 60 s later', async () => {
    const at = (iso: string) =>
      consumeSlidingRateLimit({
        database: database.database,
        scope: 'sms',
        subject: '+447700900001',
        limit: 1,
        windowSeconds: 60,
        now: new Date(iso),
      });
    expect((await at('2026-11-22T10:00:59Z')).allowed).toBe(true);
    expect((await at('2026-11-22T10:01:01Z')).allowed).toBe(false); // a fixed window would have allowed this
    expect((await at('2026-11-22T10:02:00Z')).allowed).toBe(true);
  });

  it('a sliding limit of 5 an hour counts the last 60 minutes', async () => {
    const at = (minute: number) =>
      consumeSlidingRateLimit({
        database: database.database,
        scope: 'sms-hour',
        subject: '+447700900002',
        limit: 5,
        windowSeconds: 3600,
        now: new Date(Date.UTC(2026, 10, 22, 10, minute)),
      });
    for (const minute of [50, 52, 54, 56, 58]) expect((await at(minute)).allowed).toBe(true);
    expect((await at(62)).allowed).toBe(false);
    expect((await at(111)).allowed).toBe(true);
  });
});
