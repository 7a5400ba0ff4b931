import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, messages } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { LiveFeedItem } from '../schemas';
import { exportMessageLog, messageLogCsvColumns } from './export-message-log';
import { findMessageDataQuality } from './find-message-data-quality';
import { getMessageDataCollectionPage } from './get-message-data-collection-page';
import { streamLiveMessageFeed } from './stream-live-message-feed';
import { admin, clinician, fixtureNow, insertMessageFixture, official } from './test-support/message-fixture';

const noFilters = { channel: null, persona: null, productId: null };
const request = { requestId: 'test-request', clientAddress: '127.0.0.1' };

/** Reads SSE events from a stream until `count` named events have come (or the stream ends). */
export async function readEvents(stream: ReadableStream<Uint8Array>, count: number): Promise<{ name: string; data: unknown }[]> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const events: { name: string; data: unknown }[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (name !== undefined && data !== undefined) events.push({ name, data: JSON.parse(data) });
      end = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

async function csvOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe.each(testDatabaseBackends())('message data collection on $name', (backend) => {
  let database: TestDatabase;
  let formulaPseudonym: string;
  beforeEach(async () => {
    database = await backend.create();
    ({ formulaPseudonym } = await insertMessageFixture(database.database));
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('checks the data quality of the scope: missing final statuses, unmatched replies, latency percentiles', async () => {
    const db = database.database;
    const page = await getMessageDataCollectionPage({ database: db, actor: admin, filters: noFilters, now: fixtureNow });
    expect(page).toMatchObject({ status: 'ok', scope: 'all', suppressed: false, canExport: true, seesPseudonyms: true });
    const all = await findMessageDataQuality({ database: db, actor: admin, filters: noFilters, now: fixtureNow });
    if (all.dataQuality === null) throw new Error('expected figures');
    expect(all).toMatchObject({ patients: 14, computedAt: fixtureNow.toISOString() });
    expect(all.dataQuality).toMatchObject({
      // The message sent an hour ago is not checked yet.
      outboundChecked: { messages: 16, patients: 14 },
      withoutFinalStatus: { messages: 1, patients: 1 },
      inbound: { messages: 14, patients: 12 },
      // The STOP 25 h after the last SMS, and the reply quoting a message we do not hold.
      unmatchedReplies: { messages: 2, patients: 1 },
      unmatchedWebhookEvents: { unknownMessage: 1, unknownSender: 1 },
    });
    // Delivered after 10, 20 … 120 s (A) and 30 s twice (B): percentile_cont interpolates.
    expect(all.dataQuality.latency).toMatchObject({ messages: 14, patients: 14 });
    const latency = all.dataQuality.latency as { p50: number; p90: number; p99: number };
    expect(latency.p50).toBeCloseTo(55, 6);
    expect(latency.p90).toBeCloseTo(107, 6);
    expect(latency.p99).toBeCloseTo(118.7, 6);

    expect(await getMessageDataCollectionPage({ database: db, actor: clinician, filters: noFilters, now: fixtureNow })).toMatchObject({
      scope: 'organisation',
    });
    const own = await findMessageDataQuality({ database: db, actor: clinician, filters: noFilters, now: fixtureNow });
    if (own.dataQuality === null) throw new Error('expected figures');
    expect(own).toMatchObject({ patients: 12 });
    expect(own.dataQuality).toMatchObject({
      outboundChecked: { messages: 14, patients: 12 },
      unmatchedReplies: { messages: 2, patients: 1 },
      // Webhook events of nobody's patient are not the organisation's.
      unmatchedWebhookEvents: null,
    });
    expect((own.dataQuality.latency as { p50: number }).p50).toBeCloseTo(65, 6);

    const sms = await findMessageDataQuality({ database: db, actor: admin, filters: { ...noFilters, channel: 'sms' }, now: fixtureNow });
    if (sms.dataQuality === null) throw new Error('expected figures');
    expect(sms).toMatchObject({ patients: 1 });
    expect(sms.dataQuality).toMatchObject({
      unmatchedReplies: { messages: 1, patients: 1 },
      unmatchedWebhookEvents: { unknownMessage: 0, unknownSender: 1 },
      latency: null,
    });
  });

  it('hides figures over fewer than 11 patients from viewers whose aggregates are suppressed', async () => {
    const db = database.database;
    expect(await getMessageDataCollectionPage({ database: db, actor: official, filters: noFilters, now: fixtureNow })).toMatchObject({
      suppressed: true,
      canExport: false,
      seesPseudonyms: false,
    });
    const page = await findMessageDataQuality({ database: db, actor: official, filters: noFilters, now: fixtureNow });
    if (page.dataQuality === null) throw new Error('expected figures');
    expect(page.patients).toBe(14);
    expect(page.dataQuality).toMatchObject({
      outboundChecked: { messages: 16, patients: 14 },
      withoutFinalStatus: { suppressed: true },
      unmatchedReplies: { suppressed: true },
      inbound: { messages: 14, patients: 12 },
      latency: { messages: 14, patients: 14 },
    });
    // Organisation B's two patients alone: no figure at all.
    const small = await findMessageDataQuality({
      database: db,
      actor: official,
      filters: { ...noFilters, persona: 'forgetful-older-adult' },
      now: fixtureNow,
    });
    expect(small).toMatchObject({ patients: null, dataQuality: null });
    // The figures of a selection are reused for a few minutes, then computed again.
    const later = new Date(fixtureNow.getTime() + 60_000);
    expect((await findMessageDataQuality({ database: db, actor: official, filters: noFilters, now: later })).computedAt).toBe(
      fixtureNow.toISOString(),
    );
    const muchLater = new Date(fixtureNow.getTime() + 6 * 60_000);
    expect((await findMessageDataQuality({ database: db, actor: official, filters: noFilters, now: muchLater })).computedAt).toBe(
      muchLater.toISOString(),
    );
  });

  it('exports the message log of the scope as neutralised CSV, without text or numbers, audited; refuses other roles', async () => {
    const db = database.database;
    await expect(exportMessageLog({ database: db, actor: official, filters: noFilters, request, now: fixtureNow })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const own = await exportMessageLog({ database: db, actor: clinician, filters: noFilters, request, now: fixtureNow, pageSize: 7 });
    expect(own.filename).toMatch(/^message-log-\d{4}-\d{2}-\d{2}-to-2026-11-01\.csv$/);
    const text = await csvOf(own.stream);
    const [header, ...lines] = text.trimEnd().split('\r\n');
    expect(header).toBe(messageLogCsvColumns.join(','));
    // Organisation A only: 12 reminders and replies, A-0's four others, A-1's failure (pages of 7 joined whole).
    expect(lines).toHaveLength(29);
    expect(new Set(lines.map((line) => line.split(',')[0])).size).toBe(29);
    expect(text).not.toContain('B-0');
    expect(text).not.toContain('Take your');
    expect(text).not.toContain('+31');
    expect(text).toContain(`"'${formulaPseudonym.replaceAll('"', '""')}"`);
    expect(
      lines.some((line) => line.includes(',whatsapp,outbound,check-in,neutral,check-in.neutral.1,,') && line.endsWith(',failed,,,131026,')),
    ).toBe(true);
    expect(lines.filter((line) => line.endsWith(',taken'))).toHaveLength(12);
    expect(lines.filter((line) => line.endsWith(',stop'))).toHaveLength(1);
    expect(lines.filter((line) => line.endsWith(',skipped'))).toHaveLength(1);

    const all = await exportMessageLog({ database: db, actor: admin, filters: { ...noFilters, channel: 'sms' }, request, now: fixtureNow });
    expect((await csvOf(all.stream)).trimEnd().split('\r\n')).toHaveLength(3);
    const audit = await db
      .select({ outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'messages.export-log'));
    expect(audit.map((row) => row.outcome).sort()).toEqual(['denied', 'success', 'success']);
    expect(audit.find((row) => (row.details as { channel?: string }).channel === 'sms')).toBeDefined();
  });

  it('streams the latest messages of the scope, then new ones, de-identified, and ends at its time limit', async () => {
    const db = database.database;
    let clock = fixtureNow.getTime();
    const controller = new AbortController();
    const stream = await streamLiveMessageFeed({
      database: db,
      actor: admin,
      filters: noFilters,
      signal: controller.signal,
      sessionIsValid: async () => true,
      now: () => new Date(clock),
      limits: { pollMs: 30, maxDurationMs: 5_000 },
    });
    const reader = readEvents(stream, 2);
    // Wait for the first poll's window to open, then a new reply arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    clock += 10_000;
    const [patient] = await db.select({ id: messages.patientId }).from(messages).limit(1);
    await db.insert(messages).values({
      patientId: patient!.id,
      channel: 'sms',
      direction: 'inbound',
      sentAt: new Date(clock - 5_000),
      status: 'received',
      replyText: 'HELP',
      source: 'test',
      sourceRecordId: 'live-1',
    });
    const [first, second] = await reader;
    controller.abort();
    expect(first!.name).toBe('messages');
    const initial = first!.data as { items: LiveFeedItem[]; initial: boolean };
    expect(initial.initial).toBe(true);
    expect(initial.items).toHaveLength(20);
    expect(initial.items[0]).toMatchObject({
      channel: 'whatsapp',
      direction: 'outbound',
      category: 'education',
      status: 'sent',
      replyIntent: null,
    });
    expect(initial.items[0]!.pseudonym).toBe(formulaPseudonym);
    expect(JSON.stringify(initial)).not.toMatch(/Take your|\+31|STOP|replyText|inboundReading|body/);
    expect(second).toEqual({
      name: 'messages',
      data: { initial: false, items: [expect.objectContaining({ channel: 'sms', direction: 'inbound', replyIntent: 'help' })] },
    });

    // Viewers whose aggregates are suppressed: no pseudonyms. The stream ends by itself.
    const suppressed = await streamLiveMessageFeed({
      database: db,
      actor: official,
      filters: noFilters,
      signal: new AbortController().signal,
      sessionIsValid: async () => true,
      now: () => fixtureNow,
      limits: { pollMs: 20, maxDurationMs: 150 },
    });
    const events = await readEvents(suppressed, 5);
    expect(events.map((event) => event.name)).toEqual(['messages', 'end']);
    expect((events[0]!.data as { items: LiveFeedItem[] }).items.every((item) => item.pseudonym === null)).toBe(true);
    expect(events[1]!.data).toEqual({ reason: 'time-limit' });
  });

  it('refuses a visitor, and a fourth feed of the same user', async () => {
    const db = database.database;
    const options = { database: db, filters: noFilters, sessionIsValid: async () => true, now: () => fixtureNow };
    await expect(streamLiveMessageFeed({ ...options, actor: null, signal: new AbortController().signal })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const streams = await Promise.all(
      controllers.map((controller) => streamLiveMessageFeed({ ...options, actor: clinician, signal: controller.signal })),
    );
    await expect(streamLiveMessageFeed({ ...options, actor: clinician, signal: new AbortController().signal })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    for (const stream of streams) await stream.cancel();
    const again = await streamLiveMessageFeed({ ...options, actor: clinician, signal: new AbortController().signal });
    await again.cancel();
  });
});
