import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trials } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { listTrials } from './list-trials';

describe.each(testDatabaseBackends())('listTrials on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('lists every trial, newest start first, without the allocation secrets, and only to a signed-in user', async () => {
    await database.database.insert(trials).values([
      { id: 'older', name: 'Older trial', startDate: '2026-01-01', weeks: 12, synthetic: true },
      { id: 'newer', name: 'Newer trial', startDate: '2026-06-01', weeks: 12 },
    ]);
    const listed = await listTrials({ database: database.database, viewer: { id: 'someone', role: 'patient' } });
    expect(listed).toEqual([
      { id: 'newer', name: 'Newer trial', startDate: '2026-06-01', weeks: 12, synthetic: false },
      { id: 'older', name: 'Older trial', startDate: '2026-01-01', weeks: 12, synthetic: true },
    ]);
    await expect(listTrials({ database: database.database, viewer: null })).rejects.toThrow(/logged in/i);
  });
});
