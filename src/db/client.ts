import 'server-only';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { getEnvironment, resolveDataDirectory } from '@/lib/env';
import { getLogger } from '@/lib/logger';
import { acquireDataDirectoryLock } from './data-directory-lock';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseConnection = {
  kind: DatabaseKind;
  database: Database;
  /** Runs raw SQL (used by the migrator and health checks). */
  execute: (sql: string) => Promise<void>;
  close: () => Promise<void>;
  /** The driver's own client: a PGlite instance or a node-postgres pool. */
  driver: PGlite | pg.Pool;
};

export function openPostgresConnection(connectionString: string): DatabaseConnection {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client whose server connection drops (restart, failover) emits 'error'; unhandled, it would end the process.
  pool.on('error', (error: Error & { code?: string }) => {
    getLogger().warn({ errorCode: error.code }, 'an idle PostgreSQL connection was closed by the server');
  });
  const database = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  return {
    kind: 'postgres',
    database,
    driver: pool,
    execute: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

/**
 * dataDirectory undefined gives an in-memory database (tests). A folder is locked for this process first
 * (data-directory-lock.ts): a second process on the same folder is refused with a message saying so.
 */
export function openPgliteConnection(dataDirectory: string | undefined): DatabaseConnection {
  const lock = dataDirectory === undefined ? undefined : acquireDataDirectoryLock(dataDirectory);
  // A process that exits without closing (process.exit after an error) still removes its own lock;
  // after a crash or SIGKILL the next process takes the stale lock over.
  const releaseOnExit = () => lock?.release();
  if (lock !== undefined) process.once('exit', releaseOnExit);
  let client: PGlite;
  try {
    client = new PGlite(dataDirectory);
  } catch (error) {
    releaseOnExit();
    throw error;
  }
  const database = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    kind: 'pglite',
    database,
    driver: client,
    execute: async (sql) => {
      await client.exec(sql);
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseOnExit();
        process.off('exit', releaseOnExit);
      }
    },
  };
}

// The server entry point and the Next.js bundle each load their own copy of this module; an embedded
// database must be opened once per process, so the connection lives on globalThis.
const connectionKey = Symbol.for('medaptive.database-connection');
type GlobalWithConnection = typeof globalThis & { [connectionKey]?: DatabaseConnection };

/** The application's database: PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR. */
export function getDatabaseConnection(): DatabaseConnection {
  const holder = globalThis as GlobalWithConnection;
  if (holder[connectionKey] === undefined) {
    const environment = getEnvironment();
    holder[connectionKey] =
      environment.DATABASE_URL !== undefined
        ? openPostgresConnection(environment.DATABASE_URL)
        : openPgliteConnection(resolveDataDirectory(environment));
  }
  return holder[connectionKey];
}

export function getDatabase(): Database {
  return getDatabaseConnection().database;
}

export async function closeDatabaseConnection(): Promise<void> {
  const holder = globalThis as GlobalWithConnection;
  const connection = holder[connectionKey];
  holder[connectionKey] = undefined;
  await connection?.close();
}
