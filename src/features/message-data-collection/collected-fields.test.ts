import { getTableColumns } from 'drizzle-orm';
import { retentionDays } from '@/lib/domain/retention';
import { describe, expect, it } from 'vitest';
import { messages, policyDecisions, webhookEvents } from '@/db/schema';
import { collectedFields, type CollectedTable } from './collected-fields';

const tables = { messages, webhook_events: webhookEvents, policy_decisions: policyDecisions } as const;

describe('the fields the page says are collected', () => {
  it.each(Object.keys(tables) as CollectedTable[])('has exactly one row per column of %s, with its SQL name', (table) => {
    const columns = getTableColumns(tables[table]);
    const rows = collectedFields.filter((field) => field.table === table);
    // A column added to the schema without a row here (or a row for a column that is gone) fails this.
    expect(rows.map((row) => row.key).sort()).toEqual(Object.keys(columns).sort());
    for (const row of rows) expect(row.column).toBe(columns[row.key as keyof typeof columns]!.name);
  });

  it('states a purpose, a legal basis and a retention for every field: the prune’s own period for the webhook log, the record for the rest', () => {
    for (const field of collectedFields) {
      expect(field.purpose.length).toBeGreaterThan(5);
      expect(field.legalBasis.length).toBeGreaterThan(5);
      if (field.table === 'webhook_events') expect(field.retention).toContain(`${retentionDays.webhookEvents} days`);
      else expect(field.retention).toContain('kept until the record is deleted');
    }
  });

  it('marks the text and number columns sensitive', () => {
    const sensitive = collectedFields.filter((field) => field.sensitive).map((field) => `${field.table}.${field.column}`);
    expect(sensitive.sort()).toEqual(['messages.body', 'messages.inbound_reading', 'messages.reply_text', 'webhook_events.sender']);
  });
});
