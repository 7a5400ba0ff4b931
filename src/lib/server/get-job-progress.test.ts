import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getJobProgress } from './get-job-progress';
import { enqueueJob } from './jobs';
import type { SessionUser } from './session';

const person = (id: string, role: SessionUser['role']): SessionUser => ({
  id,
  email: `${id}@example.org`,
  name: id,
  role,
  phoneNumber: null,
  twoFactorEnabled: false,
});

describe.each(testDatabaseBackends())('getJobProgress on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('shows its creator and an admin the job, without payload or checkpoint; hides it from others', async () => {
    const { id } = await enqueueJob({
      database: database.database,
      kind: 'test-progress',
      payload: { text: 'secret file' },
      createdBy: 'clinician-1',
    });
    const own = await getJobProgress({ database: database.database, actor: person('clinician-1', 'clinician'), id });
    expect(own).toMatchObject({ id, kind: 'test-progress', status: 'queued', attempts: 0, progressDone: 0 });
    expect(own).not.toHaveProperty('payload');
    expect(own).not.toHaveProperty('checkpoint');
    expect(own).not.toHaveProperty('dedupeKey');
    expect((await getJobProgress({ database: database.database, actor: person('admin-1', 'admin'), id })).id).toBe(id);
    await expect(getJobProgress({ database: database.database, actor: person('clinician-2', 'clinician'), id })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(getJobProgress({ database: database.database, actor: null, id })).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('answers a malformed id (36 characters, not a UUID) with a validation error naming id', async () => {
    await expect(
      getJobProgress({ database: database.database, actor: person('admin-1', 'admin'), id: '0123456789-abcdef-0123456789-abcdef-' }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { id: expect.any(String) } });
  });
});
