import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrate';
import { instanceSettings } from './schema';
import { testDatabaseBackends } from './testing';

const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };

async function rows<T>(
  database: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> },
  query: ReturnType<typeof sql>,
): Promise<T[]> {
  return ((await database.execute(query)) as { rows: T[] }).rows;
}

describe.each(testDatabaseBackends())('test databases on $name', (backend) => {
  it('are copies of a template with every migration applied, and independent of each other', async () => {
    const [first, second] = await Promise.all([backend.create(), backend.create()]);
    try {
      for (const database of [first, second]) {
        const applied = await rows<{ count: number }>(
          database.database,
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
        );
        expect(applied[0]?.count).toBe(journal.entries.length);
      }
      await first.database.insert(instanceSettings).values({ key: 'copy', value: 'first' });
      expect(await first.database.select({ key: instanceSettings.key }).from(instanceSettings)).toEqual([{ key: 'copy' }]);
      expect(await second.database.select({ key: instanceSettings.key }).from(instanceSettings)).toEqual([]);
    } finally {
      await Promise.all([first.dispose(), second.dispose()]);
    }
    // A copy written to and disposed of leaves the next copy as the template was.
    const third = await backend.create();
    try {
      expect(await third.database.select({ key: instanceSettings.key }).from(instanceSettings)).toEqual([]);
    } finally {
      await third.dispose();
    }
  }, 120_000);

  it('can be empty, for the migrations to run from scratch', async () => {
    const empty = await backend.createEmpty();
    try {
      const tables = await rows<{ name: string }>(
        empty.database,
        sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables).toEqual([]);
    } finally {
      await empty.dispose();
    }
  }, 120_000);
});
