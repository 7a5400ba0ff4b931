import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repliedToSql } from '@/db/queries/message-replies';
import { messages, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { countReplies } from './count-message-outcomes';

/**
 * The overview counts replies in one windowed pass; the message flow with the shared rule's `exists` form
 * (src/db/queries/message-replies.ts). The same rows must give the same answer, case by case.
 */
describe.each(testDatabaseBackends())('the windowed reply count and the shared reply rule on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.close();
  });

  it('agree on quoted, unquoted, late, interrupted and misdirected replies', async () => {
    const db = database.database;
    const [patient] = await db
      .insert(patients)
      .values({ pseudonym: 'P', source: 'test', sourceRecordId: 'p' })
      .returning({ id: patients.id });
    let sequence = 0;
    const at = (hour: number) => new Date(Date.UTC(2026, 0, 5) + hour * 3_600_000);
    const add = (values: {
      direction: 'outbound' | 'inbound';
      hour: number;
      channel?: 'whatsapp' | 'sms';
      id?: string;
      replyTo?: string;
    }) =>
      db.insert(messages).values({
        patientId: patient!.id,
        channel: values.channel ?? 'whatsapp',
        direction: values.direction,
        sentAt: at(values.hour),
        status: values.direction === 'outbound' ? 'delivered' : 'received',
        providerMessageId: values.id ?? null,
        replyToProviderMessageId: values.replyTo ?? null,
        source: 'test',
        sourceRecordId: `m${++sequence}`,
      });
    // 1. Answered by an unquoted reply 2 h later (yes).
    await add({ direction: 'outbound', hour: 0 });
    await add({ direction: 'inbound', hour: 2 });
    // 2. An unquoted reply 25 h later (no: past the window).
    await add({ direction: 'outbound', hour: 100 });
    await add({ direction: 'inbound', hour: 125 });
    // 3. Another message of ours before the reply (no for the first; yes for the second).
    await add({ direction: 'outbound', hour: 200 });
    await add({ direction: 'outbound', hour: 203 });
    await add({ direction: 'inbound', hour: 204 });
    // 4. Quoted two days later, after another message of ours (yes: a quote answers what it quotes, at any time).
    await add({ direction: 'outbound', hour: 300, id: 'wamid.Q' });
    await add({ direction: 'outbound', hour: 301, id: 'wamid.R' });
    await add({ direction: 'inbound', hour: 348, replyTo: 'wamid.Q' });
    // 5. The next message quotes an older message (no for this one: the quote answers the older).
    await add({ direction: 'outbound', hour: 400, id: 'wamid.S' });
    await add({ direction: 'outbound', hour: 401, id: 'wamid.T' });
    await add({ direction: 'inbound', hour: 402, replyTo: 'wamid.S' });
    // 6. A reply on the other channel (no: replies are per channel).
    await add({ direction: 'outbound', hour: 500 });
    await add({ direction: 'inbound', hour: 501, channel: 'sms' });

    const everything = sql`true`;
    const windowed = await countReplies({ database: db, where: everything, windowWhere: everything });
    const shared = (
      (await db.execute(
        sql`select ${messages.channel} as channel, count(*)::int as replied from ${messages}
            where ${messages.direction} = 'outbound' and ${repliedToSql(messages)} group by 1`,
      )) as unknown as { rows: { channel: string; replied: number }[] }
    ).rows.map((row) => ({ channel: row.channel, replied: Number(row.replied) }));
    // Answered: 1, the second of 3, the first of 4 (wamid.Q), the first of 5 (wamid.S) = 4 on WhatsApp.
    expect(shared).toEqual([{ channel: 'whatsapp', replied: 4 }]);
    expect(windowed).toEqual(shared);
  });
});
