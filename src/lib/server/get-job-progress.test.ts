import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
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

  it("records a request for someone else's job as denied, with the request id and client address", async () => {
    const { id } = await enqueueJob({
      database: database.database,
      kind: 'test-progress',
      payload: { text: 'secret file' },
      createdBy: 'clinician-1',
    });
    const request = { requestId: 'request-job-1', clientAddress: '198.51.100.4' };
    await getJobProgress({ database: database.database, actor: person('clinician-1', 'clinician'), id, request });
    await expect(
      getJobProgress({ database: database.database, actor: person('clinician-2', 'clinician'), id, request }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const rows = await database.database
      .select({
        action: auditLog.action,
        outcome: auditLog.outcome,
        actorUserId: auditLog.actorUserId,
        targetUserId: auditLog.targetUserId,
        requestId: auditLog.requestId,
        clientAddress: auditLog.clientAddress,
        details: auditLog.details,
      })
      .from(auditLog);
    expect(rows).toEqual([
      {
        action: 'job.view',
        outcome: 'denied',
        actorUserId: 'clinician-2',
        targetUserId: 'clinician-1',
        requestId: 'request-job-1',
        clientAddress: '198.51.100.4',
        details: { jobId: id, kind: 'test-progress' },
      },
    ]);
  });

  it('answers a malformed id (36 characters, not a UUID) with a validation error naming id', async () => {
    await expect(
      getJobProgress({ database: database.database, actor: person('admin-1', 'admin'), id: '0123456789-abcdef-0123456789-abcdef-' }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { id: expect.any(String) } });
  });
});
