import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import { summariseMessageFacts } from '@/db/queries/message-facts';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import {
  authUsers,
  consentEvents,
  doseEvents,
  messages,
  organisationMemberships,
  organisations,
  patients,
  products,
  regimens,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { findMessageDataQuality } from '@/features/message-data-collection';
import type { Channel } from '@/lib/domain/channels';
import type { InboundReading, MessageStatusEntry } from '@/lib/domain/message-records';
import { findWhatsappAnalysis } from './find-whatsapp-analysis';

/**
 * The per-message facts (docs/decisions/049) must give the WhatsApp analysis and the data-quality checks exactly
 * what the computation over the messages gives: on a random dataset, for every kind of viewer and filter, and
 * again after what arrives late — a status for a message sent weeks ago, a reply quoting an old message, a reply
 * after midnight, a dose confirmed late, a provider id learnt after a reply quoted it, a message written with
 * row triggers off, messages removed and a persona changed.
 */
const now = new Date('2026-03-01T12:00:00Z');
const first = Date.UTC(2026, 1, 1);
const choices: PeriodChoice[] = [
  { kind: 'custom', from: dayNumberFromIso('2026-02-01'), to: dayNumberFromIso('2026-03-01') },
  { kind: 'custom', from: dayNumberFromIso('2026-02-09'), to: dayNumberFromIso('2026-02-15') },
];
type Filters = { channel: Channel; persona: string | null; productId: string | null };
const admin: Viewer = { id: 'admin-1', role: 'admin' };
const clinician: Viewer = { id: 'clinician-1', role: 'clinician' };
const official: Viewer = { id: 'official-1', role: 'government-official' };
const whatsapp: Filters = { channel: 'whatsapp', persona: null, productId: null };
const sms: Filters = { channel: 'sms', persona: null, productId: null };
const views: { actor: Viewer; filters: Filters }[] = [
  { actor: admin, filters: whatsapp },
  { actor: admin, filters: sms },
  { actor: admin, filters: { ...sms, persona: 'steady' } },
  { actor: admin, filters: { ...whatsapp, productId: 'prod-x' } },
  { actor: clinician, filters: whatsapp },
  { actor: clinician, filters: { ...sms, persona: 'busy' } },
  { actor: official, filters: whatsapp },
  { actor: official, filters: sms },
];

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const reading = (text: string, interpretation: unknown) =>
  ({ content: { kind: 'text', text }, interpretation }) as unknown as InboundReading;
const readings = [
  reading('STOP', { kind: 'keyword', keyword: { action: 'opt-out' } }),
  reading('Run out', { kind: 'reply', reply: { intent: 'missed', reason: 'ran-out' } }),
  reading('Taken', { kind: 'reply', reply: { intent: 'taken', reason: null } }),
];

async function seed(db: Database, seedNumber: number): Promise<Record<string, string>> {
  const next = random(seedNumber);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  await db.insert(authUsers).values([admin, clinician, official].map(({ id }) => ({ id, name: id, email: `${id}@x.test` })));
  await db.insert(organisations).values([
    { id: 'org-a', name: 'Riverside' },
    { id: 'org-b', name: 'Hilltop' },
  ]);
  await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
  await db.insert(products).values({ id: 'prod-x', name: 'Examplol', genericName: 'examplol' });
  const ids: Record<string, string> = {};
  for (let index = 0; index < 40; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P${index}`,
        source: 'test',
        sourceRecordId: `p${index}`,
        organisationId: index < 24 ? 'org-a' : index < 34 ? 'org-b' : null,
        persona: pick(['steady', 'busy', null]),
        timezone: pick(['Europe/Berlin', 'America/New_York', null]),
        synthetic: true,
      })
      .returning({ id: patients.id });
    ids[`P${index}`] = row!.id;
    if (next() < 0.5) {
      await db.insert(regimens).values({
        patientId: row!.id,
        productId: 'prod-x',
        dosesPerDay: 1,
        startDate: '2026-01-01',
        source: 'test',
        sourceRecordId: `r${index}`,
      });
    }
  }
  const rows: (typeof messages.$inferInsert)[] = [];
  const doses: (typeof doseEvents.$inferInsert)[] = [];
  const optOuts: (typeof consentEvents.$inferInsert)[] = [];
  let sequence = 0;
  for (const [name, patientId] of Object.entries(ids)) {
    const channel = pick(['sms', 'whatsapp'] as const);
    for (let day = 0; day < 29; day += 1) {
      if (next() < 0.15) continue;
      const sentAt = new Date(first + day * 86_400_000 + Math.floor(next() * 86_400_000));
      const at = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000).toISOString();
      const outcome = pick(['sent', 'delivered', 'read', 'failed', 'undelivered', 'queued'] as const);
      const history: MessageStatusEntry[] =
        outcome === 'queued'
          ? []
          : outcome === 'failed' || outcome === 'undelivered'
            ? [
                { status: 'sent', at: at(0) },
                { status: outcome, at: at(1) },
              ]
            : [
                { status: 'sent', at: at(0) },
                ...(outcome === 'sent' ? [] : [{ status: 'delivered' as const, at: at(Math.floor(next() * 120)) }]),
                ...(outcome === 'read' ? [{ status: 'read' as const, at: at(180) }] : []),
              ];
      const providerMessageId = channel === 'whatsapp' && next() < 0.6 ? `wamid.${name}.${day}` : null;
      rows.push({
        patientId,
        channel,
        direction: 'outbound',
        category: 'reminder',
        templateId: pick(['t1', 't2', 't3', null]),
        sentAt,
        status: next() < 0.1 && outcome === 'sent' ? 'read' : outcome,
        statusHistory: history,
        providerMessageId,
        source: 'test',
        sourceRecordId: `m${(sequence += 1)}`,
      });
      if (next() < 0.15) {
        // A second message of ours soon after: an unquoted reply then answers it, not the first.
        rows.push({
          patientId,
          channel,
          direction: 'outbound',
          templateId: 't2',
          sentAt: new Date(sentAt.getTime() + Math.floor(next() * 600) * 60_000),
          status: 'delivered',
          statusHistory: [{ status: 'delivered', at: at(2) }],
          source: 'test',
          sourceRecordId: `m${(sequence += 1)}`,
        });
      }
      if (next() < 0.55) {
        // A reply from minutes to 30 hours later; quoting the message at times (or an unknown one); read at times.
        const quote = providerMessageId !== null && next() < 0.5 ? providerMessageId : next() < 0.05 ? 'wamid.unknown' : null;
        const live = next() < 0.4;
        rows.push({
          patientId,
          channel,
          direction: 'inbound',
          sentAt: new Date(sentAt.getTime() + Math.floor(next() * 1_800) * 60_000),
          status: 'received',
          replyText: pick(['Taken', 'later', 'STOP', 'yes', 'Can I take it with food?']),
          replyToProviderMessageId: quote,
          inboundReading: live ? pick(readings) : null,
          source: 'test',
          sourceRecordId: `m${(sequence += 1)}`,
        });
      }
      if (next() < 0.5) {
        // A dose confirmed from half an hour before to 30 hours after; now and then scheduled days earlier (outside
        // the analysis's dose window), now and then two confirmed at the same instant.
        const confirmedAt = new Date(sentAt.getTime() + Math.floor(next() * 1_830 - 30) * 60_000);
        const early = next() < 0.15;
        const scheduledAt = new Date(confirmedAt.getTime() - (early ? 4 * 86_400_000 : 3_600_000));
        const base = { patientId, confirmedAt, status: 'taken' as const, source: 'test' };
        doses.push({ ...base, scheduledAt, sourceRecordId: `d${(sequence += 1)}` });
        if (early && next() < 0.5) {
          doses.push({ ...base, scheduledAt: new Date(confirmedAt.getTime() - 600_000), sourceRecordId: `d${(sequence += 1)}` });
        }
      }
      if (next() < 0.02) {
        optOuts.push({ patientId, channel, purpose: 'reminders', granted: false, source: 'clinician', effectiveAt: new Date(at(90)) });
      }
    }
  }
  await db.insert(messages).values(rows);
  await db.insert(doseEvents).values(doses);
  if (optOuts.length > 0) await db.insert(consentEvents).values(optOuts);
  return ids;
}

let round = 0;

/** The admin's WhatsApp view alone, for a check between two changes. */
async function expectAdminToMatch(db: Database): Promise<void> {
  const options = { database: db, actor: admin, choice: choices[0], filters: whatsapp, now };
  expect(await findWhatsappAnalysis(options)).toEqual(await findWhatsappAnalysis({ ...options, source: 'messages' }));
  const quality = { ...options, filters: { ...whatsapp }, now: new Date(now.getTime() + (round += 1) * 600_000) };
  expect(await findMessageDataQuality(quality)).toEqual(await findMessageDataQuality({ ...quality, source: 'messages' }));
}

async function expectFactsToMatch(db: Database): Promise<void> {
  for (const choice of choices) {
    for (const view of views) {
      const label = `${view.actor.role} ${JSON.stringify(view.filters)} ${JSON.stringify(choice)}`;
      const options = { database: db, actor: view.actor, choice, filters: view.filters, now };
      const direct = await findWhatsappAnalysis({ ...options, source: 'messages' });
      expect(await findWhatsappAnalysis(options), label).toEqual(direct);
      // Ten minutes on each round: the data-quality figures (reused for five minutes) are computed afresh.
      const quality = { ...options, filters: { ...view.filters }, now: new Date(now.getTime() + (round += 1) * 600_000) };
      const qualityDirect = await findMessageDataQuality({ ...quality, source: 'messages' });
      expect(await findMessageDataQuality(quality), `data quality ${label}`).toEqual(qualityDirect);
      if (view.filters.channel === 'sms' && view.filters.persona === null) {
        const anyChannel = { ...quality, filters: { ...view.filters, channel: null } };
        expect(await findMessageDataQuality(anyChannel), `data quality, any channel ${label}`).toEqual(
          await findMessageDataQuality({ ...anyChannel, source: 'messages' }),
        );
      }
    }
  }
}

const count = async (db: Database, table: string) =>
  Number(
    ((await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
  );

describe.each(testDatabaseBackends())('the per-message facts on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.close();
  });

  it('give the WhatsApp analysis and the data-quality checks what the messages give, before and after late changes', async () => {
    const db = database.database;
    const ids = await seed(db, 49);
    await expectFactsToMatch(db);
    // The facts were read, not skipped: every stale day was computed, one row per message.
    expect(await count(db, 'message_fact_stale_days')).toBe(0);
    expect(await count(db, 'message_facts')).toBe(await count(db, 'messages'));
    const adminView = { database: db, actor: admin, choice: choices[0], filters: whatsapp, now };
    const before = await findWhatsappAnalysis(adminView);
    const qualityBefore = await findMessageDataQuality({
      ...adminView,
      filters: { ...whatsapp },
      now: new Date(now.getTime() - 3_600_000),
    });

    // A reply just after midnight from a patient we never wrote to on WhatsApp, its facts computed (unmatched);
    // then the message it answers, sent before midnight, arrives late: the reply's day must be recomputed too.
    const [smsOnly] = await db
      .select({ patientId: messages.patientId })
      .from(messages)
      .where(
        sql`${messages.channel} = 'sms' and not exists (select 1 from messages w where w.patient_id = ${messages.patientId} and w.channel = 'whatsapp')`,
      )
      .limit(1);
    const lateSend = { patientId: smsOnly!.patientId, channel: 'whatsapp' as const, source: 'test' };
    await db.insert(messages).values({
      ...lateSend,
      direction: 'inbound',
      sentAt: new Date('2026-02-21T00:30:00Z'),
      status: 'received',
      replyText: 'Taken',
      sourceRecordId: 'reply-first',
    });
    await summariseMessageFacts({ database: db });
    await db.insert(messages).values({
      ...lateSend,
      direction: 'outbound',
      templateId: 't1',
      sentAt: new Date('2026-02-20T23:30:00Z'),
      status: 'delivered',
      sourceRecordId: 'sent-later',
    });
    // Checked at once: the other changes below mark enough days to hide a day this one failed to mark.
    await expectAdminToMatch(db);
    // A late status: a message sent in early February, still "sent", is delivered and read three weeks later.
    const [old] = await db
      .select({ id: messages.id, sentAt: messages.sentAt })
      .from(messages)
      .where(sql`${messages.direction} = 'outbound' and ${messages.status} = 'sent' and ${messages.sentAt} < '2026-02-06'`)
      .limit(1);
    await db
      .update(messages)
      .set({
        status: 'read',
        statusHistory: [
          { status: 'sent', at: old!.sentAt.toISOString() },
          { status: 'delivered', at: '2026-02-24T08:00:00Z' },
          { status: 'read', at: '2026-02-24T08:01:00Z' },
        ],
      })
      .where(eq(messages.id, old!.id));
    // A late reply quoting a WhatsApp message of early February.
    const [quotable] = await db
      .select({ patientId: messages.patientId, providerMessageId: messages.providerMessageId })
      .from(messages)
      .where(
        sql`${messages.providerMessageId} is not null and ${messages.sentAt} < '2026-02-10' and not exists (
          select 1 from messages r where r.reply_to_provider_message_id = ${messages.providerMessageId})`,
      )
      .limit(1);
    await db.insert(messages).values({
      patientId: quotable!.patientId,
      channel: 'whatsapp',
      direction: 'inbound',
      sentAt: new Date('2026-02-26T10:00:00Z'),
      status: 'received',
      replyText: 'Taken',
      replyToProviderMessageId: quotable!.providerMessageId,
      source: 'test',
      sourceRecordId: 'late-quote',
    });
    // The provider id of a message learnt after a reply quoted it (the reply was unmatched until now).
    const [orphan] = await db
      .select({ patientId: messages.patientId, sentAt: messages.sentAt })
      .from(messages)
      .where(sql`${messages.replyToProviderMessageId} = 'wamid.unknown'`)
      .limit(1);
    if (orphan !== undefined) {
      await db.insert(messages).values({
        patientId: orphan.patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        templateId: 't1',
        sentAt: new Date('2026-01-20T09:00:00Z'),
        status: 'delivered',
        providerMessageId: 'wamid.unknown',
        source: 'test',
        sourceRecordId: 'learnt-id',
      });
      await expectAdminToMatch(db);
    }
    // An outbound message late on 12 February answered after midnight, with a dose confirmed after midnight too.
    const patient = ids.P3!;
    await db.insert(messages).values([
      {
        patientId: patient,
        channel: 'whatsapp',
        direction: 'outbound',
        templateId: 't3',
        sentAt: new Date('2026-02-12T23:50:00Z'),
        status: 'delivered',
        statusHistory: [{ status: 'delivered', at: '2026-02-12T23:52:00Z' }],
        source: 'test',
        sourceRecordId: 'late-evening',
      },
      {
        patientId: patient,
        channel: 'whatsapp',
        direction: 'inbound',
        sentAt: new Date('2026-02-13T00:20:00Z'),
        status: 'received',
        replyText: 'STOP',
        source: 'test',
        sourceRecordId: 'after-midnight',
      },
    ]);
    await db.insert(doseEvents).values({
      patientId: patient,
      scheduledAt: new Date('2026-02-12T20:00:00Z'),
      confirmedAt: new Date('2026-02-13T00:25:00Z'),
      status: 'taken',
      source: 'test',
      sourceRecordId: 'late-dose',
    });
    // A dose confirmation corrected: the only one in the 24 hours after a WhatsApp template message is moved two
    // days later, so the message loses its confirmation (the update trigger must mark the days before both times).
    const [dose] = await db
      .select({ id: doseEvents.id })
      .from(doseEvents)
      .where(
        sql`${doseEvents.status} = 'taken' and exists (select 1 from messages o where o.patient_id = ${doseEvents.patientId}
          and o.channel = 'whatsapp' and o.direction = 'outbound' and o.template_id is not null
          and o.sent_at >= '2026-02-03' and o.sent_at <= ${doseEvents.confirmedAt} and ${doseEvents.confirmedAt} < o.sent_at + interval '24 hours'
          and not exists (select 1 from dose_events d where d.patient_id = o.patient_id and d.id <> ${doseEvents.id} and d.status = 'taken'
            and d.confirmed_at >= o.sent_at and d.confirmed_at < o.sent_at + interval '24 hours'))`,
      )
      .limit(1);
    await db
      .update(doseEvents)
      .set({ confirmedAt: sql`${doseEvents.confirmedAt} + interval '2 days'` })
      .where(eq(doseEvents.id, dose!.id));
    await expectAdminToMatch(db);
    // A message of today, written the way the demo seed loads (row triggers switched off).
    await db.transaction(async (transaction) => {
      await transaction.execute(sql`set local session_replication_role = replica`);
      await transaction.insert(messages).values({
        patientId: patient,
        channel: 'whatsapp',
        direction: 'outbound',
        templateId: 't1',
        sentAt: new Date('2026-02-28T23:00:00Z'),
        status: 'sent',
        statusHistory: [{ status: 'sent', at: '2026-02-28T23:00:01Z' }],
        source: 'test',
        sourceRecordId: 'today',
      });
    });
    // An answered outbound message removed (its reply is then unmatched or answers another), a reply removed,
    // and a patient moved to another persona.
    const [answered] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(
        sql`${messages.direction} = 'outbound' and ${messages.channel} = 'whatsapp' and exists (select 1 from messages r
          where r.patient_id = ${messages.patientId} and r.direction = 'inbound' and r.channel = 'whatsapp'
            and r.sent_at > ${messages.sentAt} and r.sent_at < ${messages.sentAt} + interval '2 hours')`,
      )
      .limit(1);
    await db.delete(messages).where(eq(messages.id, answered!.id));
    const [removed] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(sql`${messages.direction} = 'inbound' and ${messages.channel} = 'sms'`)
      .limit(1);
    await db.delete(messages).where(eq(messages.id, removed!.id));
    await db.update(patients).set({ persona: 'busy' }).where(eq(patients.id, ids.P7!));

    expect(await count(db, 'message_fact_stale_days')).toBeGreaterThan(0);
    await expectFactsToMatch(db);
    expect(await count(db, 'message_facts')).toBe(await count(db, 'messages'));
    // The late changes moved the figures: the facts followed them rather than agreeing by standing still.
    expect(await findWhatsappAnalysis(adminView)).not.toEqual(before);
    // Six minutes on: past the five minutes the figures are reused for.
    const qualityAfter = await findMessageDataQuality({ ...adminView, filters: { ...whatsapp }, now: new Date(now.getTime() - 3_240_000) });
    expect(qualityAfter.dataQuality).not.toEqual(qualityBefore.dataQuality);
  });
});
