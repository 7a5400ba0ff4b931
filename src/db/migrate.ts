import 'server-only';
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { withAdvisoryLock } from './advisory-lock';
import type { DatabaseConnection } from './client';
import type * as schema from './schema';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

// Any constant shared by every instance: PostgreSQL serialises concurrent migrators on it.
const migrationLockId = 7_263_001;

/** Applies the drizzle-kit migrations that have not run yet. Safe to call from several instances at once. */
export async function migrateDatabase(connection: DatabaseConnection): Promise<void> {
  if (connection.kind === 'pglite') {
    await migratePglite(connection.database as unknown as PgliteDatabase<typeof schema>, { migrationsFolder });
    return;
  }
  await withAdvisoryLock(connection, migrationLockId, () =>
    migrateNodePostgres(connection.database as unknown as NodePgDatabase<typeof schema>, { migrationsFolder }),
  );
}
