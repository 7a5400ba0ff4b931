import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type Database, type DatabaseConnection, openPgliteConnection, openPostgresConnection } from './client';
import { migrateDatabase, migrationsFolder } from './migrate';
import * as schema from './schema';

// Migrating takes seconds (tens of seconds on a busy machine) and every database test needs a fresh database:
// the migrations run once into a template, and each test database is a copy of it. The template's name carries
// a hash of the migrations (and of the PGlite version), so a changed migration builds a new one and an old
// template is never used; templates persist between runs.

export type TestDatabase = DatabaseConnection & { dispose: () => Promise<void> };

export type TestDatabaseBackend = {
  name: 'pglite' | 'postgres';
  /** A fresh database with every migration applied (a copy of the migrated template). */
  create: () => Promise<TestDatabase>;
  /** A fresh database with no migration applied, for the tests of the migrations themselves. */
  createEmpty: () => Promise<TestDatabase>;
};

let templateKeyCache: string | undefined;

/** What a template depends on: every file of the migrations folder, and for PGlite its version. */
function templateKey(): string {
  if (templateKeyCache === undefined) {
    const hash = createHash('sha256');
    const files = fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort();
    for (const file of files) {
      const full = path.join(migrationsFolder, file);
      if (!fs.statSync(full).isFile()) continue;
      hash.update(file).update('\0').update(fs.readFileSync(full)).update('\0');
    }
    templateKeyCache = hash.digest('hex').slice(0, 16);
  }
  return templateKeyCache;
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

// ---------------------------------------------------------------------------------------------------
// PGlite: a data-directory tarball of a migrated database, loaded into each new in-memory PGlite.

function pgliteTemplateFile(): string {
  return path.join(os.tmpdir(), 'medaptive-test-templates', `pglite-${pgliteVersion()}-${templateKey()}.tar`);
}

/** Builds the PGlite template tarball unless it exists; returns its path. Safe to run in several processes at once. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplateFile();
  if (fs.existsSync(file)) return file;
  const connection = openPgliteConnection(undefined);
  try {
    await migrateDatabase(connection);
    const dump = await (connection.driver as PGlite).dumpDataDir('none');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed: a process that builds at the same time, or reads, never sees half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await connection.close();
  }
  return file;
}

let pgliteTemplate: Promise<Blob> | undefined;

async function createPgliteTestDatabase(): Promise<TestDatabase> {
  pgliteTemplate ??= ensurePgliteTemplate().then((file) => new Blob([fs.readFileSync(file)]));
  const client = new PGlite({ loadDataDir: await pgliteTemplate });
  const database = drizzlePglite(client, { schema }) as unknown as Database;
  const close = () => client.close();
  return {
    kind: 'pglite',
    database,
    driver: client,
    execute: async (sql) => {
      await client.exec(sql);
    },
    close,
    dispose: close,
  };
}

async function createEmptyPgliteTestDatabase(): Promise<TestDatabase> {
  const connection = openPgliteConnection(undefined);
  return { ...connection, dispose: connection.close };
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL: a migrated template database on the server, copied by `create database … template …`.

// Any constant shared by every test process (and by other checkouts on the same server): they take turns building.
const templateLockId = 7_263_002;

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Builds the migrated template database unless it exists; returns its name. Safe to run in several processes at once. */
export async function ensurePostgresTemplate(serverUrl: string): Promise<string> {
  const name = `medaptive_template_${templateKey()}`;
  const exists = async (client: pg.Client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  return withAdminClient(serverUrl, async (admin) => {
    if (await exists(admin)) return name;
    await admin.query('select pg_advisory_lock($1)', [templateLockId]);
    try {
      if (await exists(admin)) return name;
      // Built under another name and renamed when complete, so a template that exists is whole.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const connection = openPostgresConnection(databaseUrl(serverUrl, building));
      try {
        await migrateDatabase(connection);
      } finally {
        await connection.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      // No one may connect to it: a connection to the template would make every copy fail.
      await admin.query(`alter database ${name} with is_template true allow_connections false`);
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [templateLockId]);
    }
  });
}

const postgresTemplates = new Map<string, Promise<string>>();

async function createPostgresTestDatabase(serverUrl: string, migrated: boolean): Promise<TestDatabase> {
  let template: string | undefined;
  if (migrated) {
    if (!postgresTemplates.has(serverUrl)) postgresTemplates.set(serverUrl, ensurePostgresTemplate(serverUrl));
    template = await postgresTemplates.get(serverUrl)!;
  }
  const name = `medaptive_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (admin) =>
    admin.query(`create database ${name}${template === undefined ? '' : ` template ${template}`}`),
  );
  const connection = openPostgresConnection(databaseUrl(serverUrl, name));
  return {
    ...connection,
    dispose: async () => {
      await connection.close();
      await withAdminClient(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * The databases every database test runs against: a fresh in-memory PGlite always, and a fresh
 * database on a real PostgreSQL server when TEST_DATABASE_URL names one (`.ci/run` sets it).
 */
export function testDatabaseBackends(): TestDatabaseBackend[] {
  const backends: TestDatabaseBackend[] = [
    { name: 'pglite', create: createPgliteTestDatabase, createEmpty: createEmptyPgliteTestDatabase },
  ];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl !== undefined && serverUrl !== '') {
    backends.push({
      name: 'postgres',
      create: () => createPostgresTestDatabase(serverUrl, true),
      createEmpty: () => createPostgresTestDatabase(serverUrl, false),
    });
  }
  return backends;
}
