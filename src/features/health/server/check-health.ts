import 'server-only';
import type { DatabaseConnection, DatabaseKind } from '@/db/client';
import { AppError } from '@/lib/errors';

export type HealthReport = { status: 'ok'; database: DatabaseKind };

/** Proves the database answers a query. */
export async function checkHealth(options: { connection: DatabaseConnection }): Promise<HealthReport> {
  try {
    await options.connection.execute('select 1');
  } catch (error) {
    throw new AppError('unavailable', `The ${options.connection.kind} database does not answer.`, { cause: error });
  }
  return { status: 'ok', database: options.connection.kind };
}
