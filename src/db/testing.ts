import 'server-only';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseConnection, openPgliteConnection, openPostgresConnection } from './client';
import { migrateDatabase } from './migrate';

export type TestDatabase = DatabaseConnection & { dispose: () => Promise<void> };

export type TestDatabaseBackend = {
  name: 'pglite' | 'postgres';
  create: () => Promise<TestDatabase>;
};

async function createPgliteTestDatabase(): Promise<TestDatabase> {
  const connection = openPgliteConnection(undefined);
  await migrateDatabase(connection);
  return { ...connection, dispose: connection.close };
}

async function createPostgresTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `medaptive_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection = openPostgresConnection(url.toString());
  await migrateDatabase(connection);
  return {
    ...connection,
    dispose: async () => {
      await connection.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * The databases every database test runs against: a fresh in-memory PGlite always, and a fresh
 * database on a real PostgreSQL server when TEST_DATABASE_URL names one (`.ci/run` sets it).
 */
export function testDatabaseBackends(): TestDatabaseBackend[] {
  const backends: TestDatabaseBackend[] = [{ name: 'pglite', create: createPgliteTestDatabase }];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl !== undefined && serverUrl !== '') {
    backends.push({ name: 'postgres', create: () => createPostgresTestDatabase(serverUrl) });
  }
  return backends;
}
