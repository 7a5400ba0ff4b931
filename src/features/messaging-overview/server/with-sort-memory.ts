import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';

/**
 * Runs a sorting query in a transaction of its own with room to sort in memory (the default 4 MB spills a
 * year of messages to disk) and without JIT compilation (on a busy server, compiling costs more than the
 * query saves). `set local` ends with the transaction, so the pooled connection goes back unchanged.
 */
export async function withSortMemory<T>(database: Database, query: (transaction: Database) => Promise<T>): Promise<T> {
  return database.transaction(async (transaction) => {
    await transaction.execute(sql`set local work_mem = '32MB'`);
    await transaction.execute(sql`set local jit = off`);
    return query(transaction as unknown as Database);
  });
}
