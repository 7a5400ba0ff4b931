import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { insertMessageFixture } from '@/features/message-data-collection/server/test-support/message-fixture';
import { serveRoutesFrom } from '@/lib/server/route-testing';
import { GET as exportLog } from './route';

describe.each(testDatabaseBackends())('the message-log export on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('downloads the scope’s log to clinicians and admins, neutralised; refuses visitors and other roles, and bad filters', async () => {
    const server = await serveRoutesFrom(database);
    try {
      const { formulaPseudonym } = await insertMessageFixture(database.database, { users: false });
      const download = (query: string, cookie: string | null) =>
        exportLog(
          new NextRequest(`http://localhost:3000/api/messages/export${query}`, {
            headers: { host: 'localhost:3000', ...(cookie === null ? {} : { cookie }) },
          }),
        );
      expect((await download('', null)).status).toBe(401);
      for (const role of ['patient', 'government-official', 'drug-manufacturer'] as const)
        expect((await download('', await server.signIn(role))).status).toBe(403);
      const clinician = await server.signIn('clinician');
      await database.execute(
        `insert into organisation_memberships (user_id, organisation_id) select id, 'org-a' from auth_users where name = 'clinician'`,
      );
      const refused = await download('?channel=fax', clinician);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('channel: choose one of');

      const response = await download('?period=last-3-months', clinician);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="message-log-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const text = await response.text();
      const [header, ...lines] = text.trimEnd().split('\r\n');
      expect(header).toBe(
        'message_id,pseudonym,channel,direction,category,framing,template_id,template_version,sent_at,status,delivered_at,read_at,failed_code,reply_intent',
      );
      // The clinician's organisation only; the formula-like pseudonym neutralised.
      expect(lines.length).toBeGreaterThan(0);
      expect(text).not.toMatch(/\bB-[01]\b/);
      expect(text).toContain(`"'${formulaPseudonym.replaceAll('"', '""')}"`);
      expect(text).not.toContain('Take your');

      const admin = await download('?period=last-3-months&channel=sms', await server.signIn('admin'));
      expect((await admin.text()).trimEnd().split('\r\n')).toHaveLength(3);
      const audit = await database.database
        .select({ outcome: auditLog.outcome })
        .from(auditLog)
        .where(eq(auditLog.action, 'messages.export-log'));
      expect(audit.map((row) => row.outcome).sort()).toEqual(['denied', 'denied', 'denied', 'success', 'success']);
    } finally {
      server.restore();
    }
  });
});
