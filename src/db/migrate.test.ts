import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from './migrate';
import { contactMessages, outboxMessages, rateLimitCounters } from './schema';
import { testDatabaseBackends } from './testing';

describe.each(testDatabaseBackends())('migrations on $name', (backend) => {
  it('create every table of the schema and can run again (and concurrently) without change', async () => {
    const connection = await backend.create();
    try {
      await Promise.all([migrateDatabase(connection), migrateDatabase(connection)]);
      for (const table of [contactMessages, outboxMessages, rateLimitCounters]) {
        const columns = Object.keys(getTableColumns(table));
        const rows = await connection.database.select().from(table);
        expect(rows).toEqual([]);
        expect(columns.length).toBeGreaterThan(2);
      }
    } finally {
      await connection.dispose();
    }
  });
});
