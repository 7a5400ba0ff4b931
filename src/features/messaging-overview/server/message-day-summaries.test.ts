import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import { authUsers, messages, organisationMemberships, organisations, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import type { InboundReading, MessageStatusEntry } from '@/lib/domain/message-records';
import type { OverviewFilters } from '../schemas';
import type { CohortScope } from '@/db/queries/cohort-scope';
import { messageConditions } from '@/db/queries/message-scope';
import { countGroupPatients, type GroupPatientCount } from './count-message-volumes';
import { countSummarisedGroupPatients } from './count-summarised-messages';
import { getMessagingOverview } from './get-messaging-overview';
import { summariseMessageDays } from './summarise-message-days';

/**
 * The daily summaries (docs/decisions/045) must give the page exactly what the direct computation over the
 * messages gives: on a random dataset, for every kind of viewer and filter, and again after the changes that
 * arrive late — a status for a message sent days ago, a reply quoting an old message, a reply just after
 * midnight, a message of today, a message removed and a patient's persona changed.
 */
const now = new Date('2026-03-01T12:00:00Z');
const first = Date.UTC(2026, 1, 1);
const choices: PeriodChoice[] = [
  { kind: 'custom', from: dayNumberFromIso('2026-02-01'), to: dayNumberFromIso('2026-03-01') },
  { kind: 'custom', from: dayNumberFromIso('2026-02-09'), to: dayNumberFromIso('2026-02-15') },
];
const none: OverviewFilters = { channel: null, persona: null, productId: null };
const admin: Viewer = { id: 'admin-1', role: 'admin' };
const clinician: Viewer = { id: 'clinician-1', role: 'clinician' };
const official: Viewer = { id: 'official-1', role: 'government-official' };
const views: { actor: Viewer; filters: OverviewFilters }[] = [
  { actor: admin, filters: none },
  { actor: admin, filters: { ...none, channel: 'whatsapp' } },
  { actor: admin, filters: { ...none, channel: 'sms', persona: 'steady' } },
  { actor: clinician, filters: none },
  { actor: clinician, filters: { ...none, persona: 'busy' } },
  { actor: official, filters: none },
  { actor: official, filters: { ...none, channel: 'whatsapp' } },
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

type Row = typeof messages.$inferInsert;
const stopReading = {
  content: { kind: 'text', text: 'STOP' },
  interpretation: { kind: 'keyword', keyword: { action: 'opt-out' } },
} as unknown as InboundReading;

async function seed(db: Database, seedNumber: number): Promise<Record<string, string>> {
  const next = random(seedNumber);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  await db.insert(authUsers).values([admin, clinician, official].map(({ id }) => ({ id, name: id, email: `${id}@x.test` })));
  await db.insert(organisations).values([
    { id: 'org-a', name: 'Riverside' },
    { id: 'org-b', name: 'Hilltop' },
  ]);
  await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
  const ids: Record<string, string> = {};
  for (let index = 0; index < 36; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P${index}`,
        source: 'test',
        sourceRecordId: `p${index}`,
        organisationId: index < 20 ? 'org-a' : index < 32 ? 'org-b' : null,
        persona: pick(['steady', 'busy', null]),
        synthetic: true,
      })
      .returning({ id: patients.id });
    ids[`P${index}`] = row!.id;
  }
  const rows: Row[] = [];
  let sequence = 0;
  for (const [name, patientId] of Object.entries(ids)) {
    const channel = pick(['sms', 'whatsapp'] as const);
    for (let day = 0; day < 29; day += 1) {
      if (next() < 0.2) continue;
      const sentAt = new Date(first + day * 86_400_000 + Math.floor(next() * 86_400_000));
      const at = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000).toISOString();
      const outcome = pick(['sent', 'delivered', 'read', 'failed', 'undelivered', 'queued'] as const);
      const history: MessageStatusEntry[] =
        outcome === 'queued'
          ? []
          : outcome === 'failed' || outcome === 'undelivered'
            ? [
                { status: 'sent', at: at(0) },
                next() < 0.8
                  ? {
                      status: outcome,
                      at: at(1),
                      errors: [{ code: pick(['131026', '30003', '30005']), title: pick(['Undeliverable', 'Unknown']) }],
                    }
                  : { status: outcome, at: at(1) },
              ]
            : [
                { status: 'sent', at: at(0) },
                ...(outcome === 'sent' ? [] : [{ status: 'delivered', at: at(1) }]),
                ...(outcome === 'read' ? [{ status: 'read', at: at(30) }] : []),
              ];
      // Some messages keep a final status the history does not show, as old imports do.
      const status = next() < 0.1 && outcome === 'sent' ? 'read' : outcome;
      const providerMessageId = channel === 'whatsapp' && next() < 0.5 ? `wamid.${name}.${day}` : null;
      rows.push({
        patientId,
        channel,
        direction: 'outbound',
        category: pick(['reminder', 'education', 'refill', null]),
        templateId: pick(['t1', 't2']),
        sentAt,
        status,
        statusHistory: history,
        providerMessageId,
        source: 'test',
        sourceRecordId: `m${(sequence += 1)}`,
      });
      if (next() < 0.15) {
        // A second message of ours soon after: the first is then not answered by an unquoted reply.
        rows.push({
          patientId,
          channel,
          direction: 'outbound',
          category: 'reminder',
          sentAt: new Date(sentAt.getTime() + Math.floor(next() * 600) * 60_000),
          status: 'delivered',
          statusHistory: [{ status: 'delivered', at: at(2) }],
          source: 'test',
          sourceRecordId: `m${(sequence += 1)}`,
        });
      }
      if (next() < 0.6) {
        // A reply from minutes to 30 hours later, over midnight at times; quoting the message at times; STOP at times.
        const quoted = providerMessageId !== null && next() < 0.5;
        const live = next() < 0.3;
        const text = pick(['Taken', 'later', 'STOP', 'yes', 'stop please']);
        rows.push({
          patientId,
          channel,
          direction: 'inbound',
          sentAt: new Date(sentAt.getTime() + Math.floor(next() * 1_800) * 60_000),
          status: 'received',
          replyText: text,
          replyToProviderMessageId: quoted ? providerMessageId : null,
          inboundReading: live
            ? text === 'STOP'
              ? stopReading
              : ({ content: { kind: 'text', text } } as unknown as InboundReading)
            : null,
          source: 'test',
          sourceRecordId: `m${(sequence += 1)}`,
        });
      }
    }
  }
  await db.insert(messages).values(rows);
  return ids;
}

async function expectSummariesToMatch(db: Database): Promise<void> {
  for (const choice of choices) {
    for (const view of views) {
      const direct = await getMessagingOverview({
        database: db,
        actor: view.actor,
        choice,
        filters: view.filters,
        now,
        source: 'messages',
      });
      const summarised = await getMessagingOverview({ database: db, actor: view.actor, choice, filters: view.filters, now });
      expect(summarised, `${view.actor.role} ${JSON.stringify(view.filters)} ${JSON.stringify(choice)}`).toEqual(direct);
    }
  }
}

/** The patients per group, from the bitmaps and from the messages: equal, number for number. */
async function expectGroupPatientsToMatch(db: Database): Promise<void> {
  const period = { start: dayNumberFromIso('2026-02-03'), end: dayNumberFromIso('2026-02-25') };
  const key = (row: GroupPatientCount) => `${row.level}|${row.direction}|${row.key}|${row.group}`;
  const sorted = (rows: GroupPatientCount[]) => [...rows].sort((left, right) => key(left).localeCompare(key(right)));
  const scopes: CohortScope[] = [{ kind: 'all' }, { kind: 'organisation', organisationIds: ['org-a'] }];
  for (const scope of scopes) {
    for (const filters of [none, { ...none, channel: 'whatsapp' as const, persona: 'busy' }]) {
      await summariseMessageDays({ database: db });
      const summarised = await countSummarisedGroupPatients({ database: db, scope, filters: { period, ...filters } });
      const where = messageConditions(db, scope, { period, ...filters })!;
      expect(sorted(summarised), `${scope.kind} ${JSON.stringify(filters)}`).toEqual(
        sorted(await countGroupPatients({ database: db, where })),
      );
    }
  }
}

const staleDays = async (db: Database) =>
  Number(
    ((await db.execute(sql`select count(*)::int as n from message_summary_stale_days`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
  );

describe.each(testDatabaseBackends())('the daily message summaries on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.close();
  });

  it('give the page what the messages give, before and after late statuses and replies', async () => {
    const db = database.database;
    const ids = await seed(db, 16);
    await expectSummariesToMatch(db);
    // The summaries were read, not skipped: every stale day was summarised.
    expect(await staleDays(db)).toBe(0);
    const summaryRows = (await db.execute(sql`select count(*)::int as n from message_day_summaries`)) as unknown as {
      rows: { n: number }[];
    };
    expect(Number(summaryRows.rows[0]!.n)).toBeGreaterThan(50);
    const before = await getMessagingOverview({ database: db, actor: admin, choice: choices[0], filters: none, now });

    // A late status: a message sent on 3 February, still "sent", is read three weeks later.
    const [old] = await db
      .select({ id: messages.id, sentAt: messages.sentAt })
      .from(messages)
      .where(sql`${messages.direction} = 'outbound' and ${messages.status} = 'sent' and ${messages.sentAt} < '2026-02-04'`)
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
    // A late reply quoting a WhatsApp message of early February, and a late failure with an error.
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
    // An outbound message late on 12 February answered after midnight, and a message of today.
    const patient = ids.P3!;
    await db.insert(messages).values([
      {
        patientId: patient,
        channel: 'sms',
        direction: 'outbound',
        category: 'reminder',
        sentAt: new Date('2026-02-12T23:50:00Z'),
        status: 'failed',
        statusHistory: [{ status: 'failed', at: '2026-02-12T23:51:00Z', errors: [{ code: '30007', title: 'Filtered' }] }],
        source: 'test',
        sourceRecordId: 'late-evening',
      },
      {
        patientId: patient,
        channel: 'sms',
        direction: 'inbound',
        sentAt: new Date('2026-02-13T00:20:00Z'),
        status: 'received',
        replyText: 'STOP',
        source: 'test',
        sourceRecordId: 'after-midnight',
      },
    ]);
    // A message of today, written the way the demo seed loads (row triggers switched off).
    await db.transaction(async (transaction) => {
      await transaction.execute(sql`set local session_replication_role = replica`);
      await transaction.insert(messages).values({
        patientId: patient,
        channel: 'sms',
        direction: 'outbound',
        category: 'education',
        sentAt: new Date('2026-02-28T23:00:00Z'),
        status: 'sent',
        statusHistory: [{ status: 'sent', at: '2026-02-28T23:00:01Z' }],
        source: 'test',
        sourceRecordId: 'today',
      });
    });
    // A message removed, and a patient moved to another persona.
    const [removed] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(sql`${messages.direction} = 'inbound'`)
      .limit(1);
    await db.delete(messages).where(eq(messages.id, removed!.id));
    await db.update(patients).set({ persona: 'busy' }).where(eq(patients.id, ids.P7!));

    expect(await staleDays(db)).toBeGreaterThan(0);
    await expectSummariesToMatch(db);
    await expectGroupPatientsToMatch(db);
    // The late changes moved the figures: the summaries followed them rather than agreeing by standing still.
    const after = await getMessagingOverview({ database: db, actor: admin, choice: choices[0], filters: none, now });
    expect(after).not.toEqual(before);
  });

  it('rebuild every day at a longer bitmap when the patients outgrow it', async () => {
    const db = database.database;
    await seed(db, 7);
    await summariseMessageDays({ database: db });
    const lengths = async () =>
      (
        (await db.execute(sql`select distinct length(patients)::int as bits from message_day_patient_sets`)) as unknown as {
          rows: { bits: number }[];
        }
      ).rows.map((row) => Number(row.bits));
    expect(await lengths()).toEqual([1_024]);
    // 1,000 more patients, one of them messaged today: the new ordinals pass 1,024.
    const added = await db
      .insert(patients)
      .values(
        Array.from({ length: 1_000 }, (_, index) => ({
          pseudonym: `Q${index}`,
          source: 'test',
          sourceRecordId: `q${index}`,
          persona: 'busy',
        })),
      )
      .returning({ id: patients.id });
    await db.insert(messages).values({
      patientId: added.at(-1)!.id,
      channel: 'sms',
      direction: 'outbound',
      category: 'reminder',
      sentAt: new Date('2026-02-28T09:00:00Z'),
      status: 'sent',
      source: 'test',
      sourceRecordId: 'newcomer',
    });
    await expectSummariesToMatch(db);
    expect(await lengths()).toEqual([2_048]);
    await expectGroupPatientsToMatch(db);
  });
});
