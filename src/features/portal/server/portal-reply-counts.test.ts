import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { dispensings, messages, patients, portalReplyDirtyPatients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import type { ReportingPeriod } from '@/engine/aggregation/reporting-period';
import { interpretInbound } from '@/engine/messaging';
import type { InboundReading } from '@/lib/domain/message-records';
import { NOT_RECORDED } from '../portal-tables';
import { loadMissedDoseReasons, loadReplyGroups, refreshPortalReplyCounts, wholeMonthsOf } from './portal-reply-counts';
import { seededRandom, seedTwoCompanyCatalogue } from './test-support/portal-test-catalogue';

const periodOf = (start: number, end: number): ReportingPeriod => ({
  start,
  end,
  asOf: end - 1,
  latestData: end - 1,
  choice: { kind: 'last-months', months: 12 },
  notice: null,
});
// Mid-month at both ends; a calendar year (whole months only); inside one month (days only); a month start to mid-month.
const periods = [
  periodOf(dayNumberFromCivil(2025, 1, 10), dayNumberFromCivil(2025, 12, 20)),
  periodOf(dayNumberFromCivil(2025, 1, 1), dayNumberFromCivil(2026, 1, 1)),
  periodOf(dayNumberFromCivil(2025, 6, 3), dayNumberFromCivil(2025, 6, 25)),
  periodOf(dayNumberFromCivil(2025, 3, 1), dayNumberFromCivil(2025, 9, 17)),
];
// Replies the demo data sends (missed, skipped, taken, other) and ones with a stored reading.
const texts = [
  'Missed a few',
  'Side effects again',
  'Run out',
  'Skip',
  'Not today',
  'Taken',
  'Thanks',
  'Struggling to remember',
  'Not great',
];
const readingOf = (text: string): InboundReading => ({
  content: { kind: 'text', text },
  interpretation: interpretInbound({ kind: 'text', text }),
});

/** A deterministic cohort: 30 patients in three regions (one unrecorded) on one or two of three products (two
 * companies), one never dispensed anything; a year and a half of messages, most outbound, replies of every kind. */
async function seedCohort(db: Database) {
  const random = seededRandom(20261125);
  await seedTwoCompanyCatalogue(db);
  const start = dayNumberFromCivil(2024, 12, 1);
  for (let index = 0; index < 30; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P-${index}`,
        source: 'test',
        sourceRecordId: `P-${index}`,
        region: index % 3 === 0 ? null : index % 3 === 1 ? 'north' : 'south',
        ageBand: '55-64',
        sex: 'female',
        timezone: 'Europe/London',
        conditions: ['hypertension'],
        synthetic: true,
      })
      .returning({ id: patients.id });
    const productIds =
      index === 29 ? [] : index % 4 === 0 ? ['statin-a', 'metformin-b'] : [['statin-a', 'sartan-a', 'metformin-b'][index % 3]!];
    for (const productId of productIds)
      await db.insert(dispensings).values({
        patientId: row!.id,
        productId,
        dispensedOn: isoFromDayNumber(start + Math.floor(random() * 300)),
        daysSupply: 30,
        source: 'test',
        sourceRecordId: `fill-${index}-${productId}`,
      });
    const rows = Array.from({ length: 120 }, (_, number) => {
      const inbound = random() < 0.4;
      const text = texts[Math.floor(random() * texts.length)]!;
      const kind = random();
      return {
        patientId: row!.id,
        channel: 'whatsapp' as const,
        direction: inbound ? ('inbound' as const) : ('outbound' as const),
        // Any minute of 500 days, so replies fall on month and period edges.
        sentAt: new Date((start + random() * 500) * 86_400_000),
        status: inbound ? 'received' : 'delivered',
        replyText: inbound && kind < 0.85 ? text : null,
        inboundReading: inbound && kind >= 0.7 && kind < 0.95 ? readingOf(text) : null,
        source: 'test',
        sourceRecordId: `message-${index}-${number}`,
      };
    });
    await db.insert(messages).values(rows);
  }
}

describe.each(testDatabaseBackends())('portal missed-dose reply counts on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const scopes: { productIds: string[]; region: string | null }[] = [
    { productIds: ['statin-a', 'sartan-a', 'metformin-b'], region: null },
    { productIds: ['statin-a', 'sartan-a'], region: null },
    { productIds: ['metformin-b'], region: null },
    { productIds: ['statin-a', 'sartan-a', 'metformin-b'], region: 'north' },
    { productIds: ['statin-a', 'sartan-a', 'metformin-b'], region: NOT_RECORDED },
    { productIds: ['sartan-a'], region: 'south' },
  ];

  /** Each distinct reply's count (groups of the same reply added up), and the reasons the page shows. */
  const figures = async (source: 'aggregate' | 'direct') => {
    const all = [];
    for (const period of periods)
      for (const scope of scopes) {
        const groups = new Map<string, number>();
        for (const group of await loadReplyGroups({ database: db, ...scope, period, source })) {
          const reading = typeof group.inboundReading === 'string' ? group.inboundReading : JSON.stringify(group.inboundReading);
          const key = `${group.replyText}|${reading === 'null' ? null : JSON.stringify(JSON.parse(reading!))}`;
          groups.set(key, (groups.get(key) ?? 0) + group.replies);
        }
        const reasons = await loadMissedDoseReasons({ database: db, ...scope, period, source });
        all.push({
          groups: [...groups].sort(([left], [right]) => left.localeCompare(right)),
          reasons: [...reasons].sort((left, right) => left.reason.localeCompare(right.reason)),
        });
      }
    return all;
  };
  const expectSameAsDirect = async () => {
    const direct = await figures('direct');
    expect(direct.some((entry) => entry.reasons.length > 0)).toBe(true);
    expect(await figures('aggregate')).toEqual(direct);
    return direct;
  };
  const listed = async () => (await db.select({ id: portalReplyDirtyPatients.patientId }).from(portalReplyDirtyPatients)).length;
  const someInbound = async (offset: number) =>
    (
      await db
        .select({ id: messages.id, patientId: messages.patientId, sentAt: messages.sentAt })
        .from(messages)
        .where(eq(messages.direction, 'inbound'))
        .orderBy(messages.sourceRecordId)
        .limit(1)
        .offset(offset)
    )[0]!;

  beforeAll(async () => {
    database = await backend.create();
    db = database.database;
    await seedCohort(db);
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('splits a period into whole months and partial days', () => {
    expect(wholeMonthsOf(periods[0]!)).toEqual({ from: dayNumberFromCivil(2025, 2, 1), to: dayNumberFromCivil(2025, 12, 1) });
    expect(wholeMonthsOf(periods[1]!)).toEqual({ from: dayNumberFromCivil(2025, 1, 1), to: dayNumberFromCivil(2026, 1, 1) });
    expect(wholeMonthsOf(periods[2]!)).toEqual({ from: periods[2]!.end, to: periods[2]!.end });
  });

  it('answers from messages before the first refresh and from the counts after it, with the same figures', async () => {
    // The inserts listed every patient with replies: nothing is counted yet.
    expect(await listed()).toBeGreaterThan(20);
    await expectSameAsDirect();
    expect((await refreshPortalReplyCounts({ database: db })).patients).toBeGreaterThan(20);
    expect(await listed()).toBe(0);
    const rows = await db.execute(sql`select (select count(*) from portal_reply_months)::int as months`);
    expect((rows as unknown as { rows: { months: number }[] }).rows[0]!.months).toBeGreaterThan(0);
    await expectSameAsDirect();
  });

  it('stays identical when replies are added, changed, moved and removed, before and after the refresh', async () => {
    await refreshPortalReplyCounts({ database: db });
    const before = await expectSameAsDirect();
    const first = await someInbound(0);
    const second = await someInbound(1);
    const third = await someInbound(2);
    const fourth = await someInbound(3);
    const other = (await db.select({ id: patients.id }).from(patients).where(eq(patients.sourceRecordId, 'P-7')))[0]!;
    const outbound = (
      await db
        .select({ id: messages.id })
        .from(messages)
        .where(eq(messages.direction, 'outbound'))
        .orderBy(messages.sourceRecordId)
        .limit(1)
    )[0]!;
    // Each change alone, checked before and after a refresh, so a change the triggers miss shows.
    const changes: (() => Promise<unknown>)[] = [
      // New replies on counted days, one a text never seen before, one with a stored reading.
      () => db.insert(messages).values({ ...replyRow(first.patientId, '2025-05-14T10:00:00Z', 'new-1'), replyText: 'Ran out of tablets' }),
      () =>
        db.insert(messages).values({
          ...replyRow(second.patientId, '2025-06-30T23:59:00Z', 'new-2'),
          replyText: null,
          inboundReading: readingOf('Side effects again'),
        }),
      // A changed text, a reply moved to another month, one moved to another patient, an outbound turned inbound.
      () => db.update(messages).set({ replyText: 'Run out' }).where(eq(messages.id, first.id)),
      () =>
        db
          .update(messages)
          .set({ sentAt: new Date('2025-01-10T00:00:00Z') })
          .where(eq(messages.id, second.id)),
      () => db.update(messages).set({ patientId: other.id }).where(eq(messages.id, third.id)),
      () => db.update(messages).set({ direction: 'inbound', replyText: 'Skip' }).where(eq(messages.id, outbound.id)),
      () =>
        db
          .update(messages)
          .set({ inboundReading: readingOf('Side effects again') })
          .where(eq(messages.id, fourth.id)),
      () => db.delete(messages).where(eq(messages.id, fourth.id)),
    ];
    for (const change of changes) {
      await change();
      expect(await listed()).toBeGreaterThan(0);
      await expectSameAsDirect();
      await refreshPortalReplyCounts({ database: db });
      expect(await listed()).toBe(0);
      await expectSameAsDirect();
    }
    expect(await figures('direct')).not.toEqual(before);
    // A patient removed (an import's undo): their messages go by cascade, their counts with the refresh.
    await db.delete(patients).where(eq(patients.id, fourth.patientId));
    await expectSameAsDirect();
    await refreshPortalReplyCounts({ database: db });
    await expectSameAsDirect();
  });

  it('lists writes made with row triggers off (a bulk load), and not a status change of a reply', async () => {
    await refreshPortalReplyCounts({ database: db });
    const reply = await someInbound(5);
    await db
      .update(messages)
      .set({ status: 'read', reviewedAt: new Date('2025-08-01T00:00:00Z') })
      .where(eq(messages.id, reply.id));
    expect(await listed()).toBe(0);
    await db.transaction(async (transaction) => {
      await transaction.execute(sql`set local session_replication_role = replica`);
      await transaction.insert(messages).values(replyRow(reply.patientId, '2025-08-02T08:00:00Z', 'bulk-1'));
    });
    expect(await listed()).toBe(1);
    await expectSameAsDirect();
    await refreshPortalReplyCounts({ database: db });
    await expectSameAsDirect();
  });

  it('keeps a patient listed whose reply is written while the refresh runs', async () => {
    await refreshPortalReplyCounts({ database: db });
    const reply = await someInbound(8);
    await db.insert(messages).values(replyRow(reply.patientId, '2025-10-10T10:00:00Z', 'during-1'));
    await refreshPortalReplyCounts({
      database: db,
      afterCounted: async (transaction) => {
        await transaction.insert(messages).values(replyRow(reply.patientId, '2025-10-11T10:00:00Z', 'during-2'));
      },
    });
    expect(await listed()).toBe(1);
    await expectSameAsDirect();
    await refreshPortalReplyCounts({ database: db });
    expect(await listed()).toBe(0);
    await expectSameAsDirect();
  });

  it('differs from the messages when a change is not listed (so the comparison can fail)', async () => {
    await refreshPortalReplyCounts({ database: db });
    const reply = await someInbound(6);
    await db.insert(messages).values(replyRow(reply.patientId, '2025-04-04T12:00:00Z', 'unlisted-1'));
    await db.delete(portalReplyDirtyPatients);
    const direct = await figures('direct');
    expect(await figures('aggregate')).not.toEqual(direct);
    // The refresh of that patient brings the counts back to the messages.
    await db.insert(portalReplyDirtyPatients).values({ patientId: reply.patientId, generation: 0 });
    await refreshPortalReplyCounts({ database: db });
    expect(await figures('aggregate')).toEqual(direct);
  });
});

function replyRow(patientId: string, at: string, id: string) {
  return {
    patientId,
    channel: 'whatsapp' as const,
    direction: 'inbound' as const,
    sentAt: new Date(at),
    status: 'received',
    replyText: 'Missed a few' as string | null,
    inboundReading: null as InboundReading | null,
    source: 'test',
    sourceRecordId: `reply-${id}`,
  };
}
