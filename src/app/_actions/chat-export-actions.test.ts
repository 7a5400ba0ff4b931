import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { auditLog, authUsers, chatExports } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { SessionUser } from '@/lib/server/session';

// The request a server action sees (its headers, who is signed in) and the database it uses.
const request = vi.hoisted(() => ({ headers: new Headers(), user: null as SessionUser | null, database: null as unknown }));
vi.mock('next/headers', () => ({ headers: async () => request.headers }));
vi.mock('@/lib/server/session', () => ({ getSessionUser: async () => request.user }));
vi.mock('@/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDatabase: () => request.database }));

const { deleteChatExportAction, getChatExportAction, saveChatExportAction } = await import('./chat-export-actions');

const user = (id: string): SessionUser => ({
  id,
  email: `${id}@x.test`,
  name: id,
  role: 'patient',
  phoneNumber: null,
  twoFactorEnabled: false,
});
const owner = user('owner');
const other = { ...user('other'), role: 'admin' as const };

const conversation = {
  fileName: 'WhatsApp Chat with Ana.txt',
  timeZone: 'Europe/Madrid',
  dateOrder: 'dmy',
  messages: [
    { timestamp: '2024-01-01T09:00:00.000Z', author: null, text: 'Messages are end-to-end encrypted.', kind: 'system' },
    { timestamp: '2024-01-01T09:01:00.000Z', author: 'Ana', text: 'Did you take it?', kind: 'text' },
    { timestamp: '2024-01-01T09:05:00.000Z', author: 'Ben', text: 'Yes', kind: 'text' },
  ],
};

describe.each(testDatabaseBackends())('chat export actions on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    request.database = db;
    request.headers = new Headers({ origin: 'http://localhost:3000', host: 'localhost:3000' });
    request.user = owner;
    await db.insert(authUsers).values([owner, other].map((entry) => ({ id: entry.id, name: entry.name, email: entry.email })));
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('saves for the owner only, audits without the file name or content, and deletes', async () => {
    const saved = await saveChatExportAction(conversation);
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.data).toMatchObject({ fileName: conversation.fileName, messageCount: 3, participants: ['Ana', 'Ben'] });
    const [row] = await db.select({ owner: chatExports.ownerUserId, messages: chatExports.messages }).from(chatExports);
    expect(row).toEqual({ owner: 'owner', messages: conversation.messages });
    const [audit] = await db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'chat-export.saved'));
    expect(audit?.details).toEqual({ chatExportId: saved.data.id, messageCount: 3, participantCount: 2 });
    expect(JSON.stringify(audit)).not.toMatch(/Ana|WhatsApp Chat|Did you/);

    expect(await getChatExportAction(saved.data.id)).toMatchObject({
      ok: true,
      data: { id: saved.data.id, timeZone: 'Europe/Madrid', dateOrder: 'dmy' },
    });

    // Another user, even an admin, cannot open or delete it: the same "not found" as for no export at all.
    request.user = other;
    expect(await getChatExportAction(saved.data.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await deleteChatExportAction(saved.data.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await db.select({ id: chatExports.id }).from(chatExports)).toHaveLength(1);
    const denied = await db.select({ outcome: auditLog.outcome }).from(auditLog).where(eq(auditLog.action, 'chat-export.deleted'));
    expect(denied).toEqual([{ outcome: 'denied' }]);

    request.user = owner;
    expect(await deleteChatExportAction(saved.data.id)).toEqual({ ok: true, data: { id: saved.data.id } });
    expect(await db.select({ id: chatExports.id }).from(chatExports)).toHaveLength(0);
    expect(await getChatExportAction(saved.data.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('refuses a foreign Origin, no user, and input out of bounds, naming the field', async () => {
    request.headers = new Headers({ origin: 'https://evil.example', host: 'localhost:3000' });
    expect(await saveChatExportAction(conversation)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    request.headers = new Headers({ origin: 'http://localhost:3000', host: 'localhost:3000' });
    request.user = null;
    expect(await saveChatExportAction(conversation)).toEqual({
      ok: false,
      error: { code: 'unauthenticated', message: 'No user logged in' },
    });
    request.user = owner;
    expect(await saveChatExportAction({ ...conversation, timeZone: 'Mars/Olympus' })).toMatchObject({
      ok: false,
      error: { code: 'validation', fieldErrors: { timeZone: expect.stringContaining('IANA') } },
    });
    expect(await saveChatExportAction({ ...conversation, messages: [] })).toMatchObject({ ok: false, error: { code: 'validation' } });
    const many = Array.from({ length: 5001 }, () => conversation.messages[1]!);
    expect(await saveChatExportAction({ ...conversation, messages: many })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: expect.stringContaining('at most 5000 messages') },
    });
    const long = Array.from({ length: 400 }, () => ({ ...conversation.messages[1]!, text: 'x'.repeat(3000) }));
    expect(await saveChatExportAction({ ...conversation, messages: long })).toMatchObject({
      ok: false,
      error: { code: 'payload_too_large' },
    });
    expect(await getChatExportAction('not-an-id')).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(await db.select({ id: chatExports.id }).from(chatExports)).toHaveLength(0);
  });
});
