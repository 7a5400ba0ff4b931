import 'server-only';
import type pg from 'pg';
import type { DatabaseConnection } from './client';

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so instances starting together take turns (migrations,
 * demo seeding). An embedded PGlite belongs to one process and needs no lock.
 */
export async function withAdvisoryLock<T>(connection: DatabaseConnection, lockId: number, work: () => Promise<T>): Promise<T> {
  if (connection.kind === 'pglite') return work();
  const client = await (connection.driver as pg.Pool).connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockId]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    client.release();
  }
}
