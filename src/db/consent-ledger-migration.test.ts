import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migrationsFolder } from './migrate';
import { testDatabaseBackends } from './testing';

type Journal = { entries: { idx: number; tag: string }[] };

/** The migrations folder as it was before the consent ledger (every migration before it). */
function foldersBeforeConsentLedger(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-before-consent-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
  const ledger = journal.entries.findIndex((entry) => entry.tag.endsWith('consent-ledger'));
  expect(ledger).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, ledger) }));
  return folder;
}

describe.each(testDatabaseBackends())('the consent-ledger migration on $name', (backend) => {
  const before = foldersBeforeConsentLedger();
  afterAll(() => rmSync(before, { recursive: true, force: true }));

  it('turns the consent a patient row held into opt-in events, then drops the column', async () => {
    const connection = await backend.createEmpty();
    try {
      if (connection.kind === 'pglite') await migratePglite(connection.database as unknown as PgliteDatabase, { migrationsFolder: before });
      else await migrateNodePostgres(connection.database as unknown as NodePgDatabase, { migrationsFolder: before });
      await connection.database.execute(sql`insert into patients (pseudonym, source, source_record_id, consent, created_at) values
        ('A', 'test', 'a', '{"sms": {"reminders": true, "surveys": false}, "whatsapp": {"research": true}, "email": {"reminders": true}}', '2026-01-02T03:04:05Z'),
        ('B', 'test', 'b', '{}', now()),
        ('C', 'test', 'c', '{"sms": "yes", "app": {"reminders": "true", "education": true, "spam": true}}', '2026-02-01T00:00:00Z')`);
      await migrateDatabase(connection);
      const events = (await connection.database.execute(
        sql`select p.pseudonym, e.channel, e.purpose, e.granted, e.source, e.effective_at from consent_events e join patients p on p.id = e.patient_id order by 1, 2, 3`,
      )) as unknown as {
        rows: { pseudonym: string; channel: string; purpose: string; granted: boolean; source: string; effective_at: Date | string }[];
      };
      expect(events.rows.map((row) => ({ ...row, effective_at: new Date(row.effective_at).toISOString() }))).toEqual([
        {
          pseudonym: 'A',
          channel: 'sms',
          purpose: 'reminders',
          granted: true,
          source: 'migration',
          effective_at: '2026-01-02T03:04:05.000Z',
        },
        {
          pseudonym: 'A',
          channel: 'whatsapp',
          purpose: 'research',
          granted: true,
          source: 'migration',
          effective_at: '2026-01-02T03:04:05.000Z',
        },
        {
          pseudonym: 'C',
          channel: 'app',
          purpose: 'education',
          granted: true,
          source: 'migration',
          effective_at: '2026-02-01T00:00:00.000Z',
        },
      ]);
      const column = (await connection.database.execute(
        sql`select count(*)::int as n from information_schema.columns where table_name = 'patients' and column_name = 'consent'`,
      )) as unknown as { rows: { n: number }[] };
      expect(column.rows[0]?.n).toBe(0);
    } finally {
      await connection.dispose();
    }
  }, 120_000);
});
