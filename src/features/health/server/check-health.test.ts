import { describe, expect, it } from 'vitest';
import { testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { checkHealth } from './check-health';

describe.each(testDatabaseBackends())('checkHealth on $name', (backend) => {
  it('reports ok and the kind of database', async () => {
    const connection = await backend.create();
    try {
      await expect(checkHealth({ connection })).resolves.toEqual({ status: 'ok', database: connection.kind });
    } finally {
      await connection.dispose();
    }
  });

  it('reports unavailable when the database does not answer', async () => {
    const connection = await backend.create();
    await connection.dispose();
    const failure = await checkHealth({ connection }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).httpStatus).toBe(503);
  });
});
