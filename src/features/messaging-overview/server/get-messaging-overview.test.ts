import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import {
  authUsers,
  consentEvents,
  dispensings,
  messages,
  organisationMemberships,
  organisations,
  patients,
  policyDecisions,
  products,
  regimens,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { wilsonInterval } from '@/engine/statistics/trial';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import type { MessageStatusEntry } from '@/lib/domain/message-records';
import type { MessagingOverview, OverviewFilters } from '../schemas';
import { getMessagingOverview } from './get-messaging-overview';

const now = new Date('2026-02-01T08:00:00Z');
// Two ISO weeks: Monday 5 January and Monday 12 January 2026.
const choice: PeriodChoice = { kind: 'custom', from: dayNumberFromIso('2026-01-05'), to: dayNumberFromIso('2026-01-18') };
const noFilters: OverviewFilters = { channel: null, persona: null, productId: null };
const admin: Viewer = { id: 'admin-1', role: 'admin' };
const clinician: Viewer = { id: 'clinician-1', role: 'clinician' };
const official: Viewer = { id: 'official-1', role: 'government-official' };

type Ok = Extract<MessagingOverview, { status: 'ok' }>;

let sequence = 0;
const history = (...steps: [string, string][]): MessageStatusEntry[] => steps.map(([status, at]) => ({ status, at }));

/**
 * Org A: A1…A11 (A1–A6 persona "steady", the rest "busy"); org B: B1, B2. See each message's comment for
 * what it counts as; the expected figures in the tests are worked out from these rows by hand.
 */
async function seed(db: Database): Promise<Record<string, string>> {
  await db.insert(authUsers).values(['admin-1', 'clinician-1', 'official-1'].map((id) => ({ id, name: id, email: `${id}@x.test` })));
  await db.insert(organisations).values([
    { id: 'org-a', name: 'Riverside' },
    { id: 'org-b', name: 'Hilltop' },
  ]);
  await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
  await db.insert(products).values({ id: 'statin', name: 'Atorva 20', genericName: 'atorvastatin' });
  const ids: Record<string, string> = {};
  const names = [...Array.from({ length: 11 }, (_, index) => `A${index + 1}`), 'B1', 'B2'];
  for (const [index, name] of names.entries()) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: name,
        source: 'test',
        sourceRecordId: name,
        organisationId: name.startsWith('A') ? 'org-a' : 'org-b',
        persona: index < 6 ? 'steady' : 'busy',
        synthetic: true,
        messagingProgramme: index < 4 ? 'fixed-daily' : index === 4 ? 'personalised' : null,
        preferredChannel: index < 4 ? 'sms' : index === 4 ? 'whatsapp' : null,
      })
      .returning({ id: patients.id });
    ids[name] = row!.id;
  }
  await db.insert(regimens).values({
    patientId: ids.A1!,
    productId: 'statin',
    dosesPerDay: 1,
    startDate: '2025-06-01',
    source: 'test',
    sourceRecordId: 'regimen-a1',
  });
  // B1's statin fill; A10's fill of another medicine sets the data's last day (the period may run to it).
  await db.insert(dispensings).values([
    { patientId: ids.B1!, productId: 'statin', dispensedOn: '2025-12-01', daysSupply: 30, source: 'test', sourceRecordId: 'fill-b1' },
    { patientId: ids.A10!, medicationCode: 'other', dispensedOn: '2026-01-31', daysSupply: 30, source: 'test', sourceRecordId: 'fill-a10' },
  ]);

  type Row = typeof messages.$inferInsert;
  const message = (patient: string, values: Omit<Row, 'patientId' | 'source' | 'sourceRecordId'>): Row => ({
    patientId: ids[patient]!,
    source: 'test',
    sourceRecordId: `m-${(sequence += 1)}`,
    ...values,
  });
  const delivered = (at: string) => history(['sent', at], ['delivered', at]);
  const rows: Row[] = [
    // Every A patient and B1, B2: an SMS reminder on 5 January, delivered.
    ...[...names].map((name) =>
      message(name, {
        channel: 'sms',
        direction: 'outbound',
        category: 'reminder',
        sentAt: new Date('2026-01-05T10:00:00Z'),
        status: 'delivered',
        statusHistory: delivered('2026-01-05T10:00:05Z'),
      }),
    ),
    // A1–A3 and B1 answer within the hour (replied); A4 answers 25 hours later (not a reply).
    ...['A1', 'A2', 'A3', 'B1'].map((name) =>
      message(name, {
        channel: 'sms',
        direction: 'inbound',
        sentAt: new Date('2026-01-05T11:00:00Z'),
        status: 'received',
        replyText: 'Taken',
      }),
    ),
    message('A4', {
      channel: 'sms',
      direction: 'inbound',
      sentAt: new Date('2026-01-06T11:00:00Z'),
      status: 'received',
      replyText: 'Taken',
    }),
    // A5: a WhatsApp education message read, answered STOP half an hour later (replied, a STOP reply).
    message('A5', {
      channel: 'whatsapp',
      direction: 'outbound',
      category: 'education',
      sentAt: new Date('2026-01-12T09:00:00Z'),
      status: 'read',
      statusHistory: history(['sent', '2026-01-12T09:00:01Z'], ['delivered', '2026-01-12T09:00:02Z'], ['read', '2026-01-12T09:10:00Z']),
    }),
    message('A5', {
      channel: 'whatsapp',
      direction: 'inbound',
      sentAt: new Date('2026-01-12T09:30:00Z'),
      status: 'received',
      replyText: 'STOP',
    }),
    // A6: a WhatsApp reminder that failed with a provider error.
    message('A6', {
      channel: 'whatsapp',
      direction: 'outbound',
      category: 'reminder',
      sentAt: new Date('2026-01-12T09:00:00Z'),
      status: 'failed',
      statusHistory: [
        { status: 'sent', at: '2026-01-12T09:00:01Z' },
        { status: 'failed', at: '2026-01-12T09:00:03Z', errors: [{ code: '131026', title: 'Message undeliverable' }] },
      ],
    }),
    // A7: two SMS refills (sent, no receipt) then one answer: only the second is replied to.
    ...['2026-01-12T09:00:00Z', '2026-01-12T10:00:00Z'].map((at) =>
      message('A7', {
        channel: 'sms',
        direction: 'outbound',
        category: 'refill',
        sentAt: new Date(at),
        status: 'sent',
        statusHistory: history(['sent', at]),
      }),
    ),
    message('A7', { channel: 'sms', direction: 'inbound', sentAt: new Date('2026-01-12T10:30:00Z'), status: 'received', replyText: 'ok' }),
    // A8 (live): a WhatsApp message answered two days later by a reply naming it (replied by reference).
    message('A8', {
      channel: 'whatsapp',
      direction: 'outbound',
      category: 'check-in',
      sentAt: new Date('2026-01-13T09:00:00Z'),
      status: 'delivered',
      statusHistory: delivered('2026-01-13T09:00:02Z'),
      providerMessageId: 'wamid.a8',
    }),
    message('A8', {
      channel: 'whatsapp',
      direction: 'inbound',
      sentAt: new Date('2026-01-15T09:00:00Z'),
      status: 'received',
      providerMessageId: 'wamid.a8-reply',
      replyToProviderMessageId: 'wamid.a8',
      inboundReading: { content: { kind: 'text', text: 'yes' }, interpretation: { kind: 'reply', reply: { intent: 'taken' } } },
    }),
    // A9: after the period (not counted).
    message('A9', {
      channel: 'sms',
      direction: 'outbound',
      category: 'reminder',
      sentAt: new Date('2026-01-20T10:00:00Z'),
      status: 'delivered',
      statusHistory: delivered('2026-01-20T10:00:05Z'),
    }),
  ];
  await db.insert(messages).values(rows);

  await db.insert(consentEvents).values([
    {
      patientId: ids.A5!,
      channel: 'whatsapp',
      purpose: 'reminders',
      granted: false,
      source: 'whatsapp-keyword',
      effectiveAt: new Date('2026-01-12T09:30:00Z'),
    },
    {
      patientId: ids.A2!,
      channel: 'sms',
      purpose: 'reminders',
      granted: false,
      source: 'profile',
      effectiveAt: new Date('2026-01-06T12:00:00Z'),
    },
    {
      patientId: ids.B2!,
      channel: 'sms',
      purpose: 'education',
      granted: false,
      source: 'clinician',
      effectiveAt: new Date('2026-01-14T12:00:00Z'),
    },
    // An opt-in, and an opt-out after the period: neither counts.
    {
      patientId: ids.A3!,
      channel: 'sms',
      purpose: 'reminders',
      granted: true,
      source: 'profile',
      effectiveAt: new Date('2026-01-07T12:00:00Z'),
    },
    {
      patientId: ids.A3!,
      channel: 'sms',
      purpose: 'reminders',
      granted: false,
      source: 'profile',
      effectiveAt: new Date('2026-01-25T12:00:00Z'),
    },
  ]);

  const decision = (patient: string, day: string, status: 'planned' | 'sent', scheduledFor: string) => ({
    patientId: ids[patient]!,
    source: 'live' as const,
    localDate: day,
    decidedAt: new Date('2026-01-31T00:00:00Z'),
    policyName: 'fixed-daily',
    policyVersion: '1',
    context: {},
    action: 'message' as const,
    propensity: 1,
    randomSeed: '1',
    scheduledFor: new Date(scheduledFor),
    status,
  });
  await db.insert(policyDecisions).values([
    decision('A1', '2026-02-01', 'planned', '2026-02-01T09:00:00Z'),
    decision('A2', '2026-02-03', 'planned', '2026-02-03T09:00:00Z'),
    decision('B1', '2026-02-02', 'planned', '2026-02-02T09:00:00Z'),
    // Already sent, and planned but overdue: neither is a next send.
    decision('A3', '2026-02-01', 'sent', '2026-02-01T09:00:00Z'),
    decision('A4', '2026-01-31', 'planned', '2026-01-31T09:00:00Z'),
  ]);
  return ids;
}

const rateOf = (count: number, of: number) => {
  const [low, high] = wilsonInterval(count, of);
  return { count, of, share: count / of, low, high };
};

describe.each(testDatabaseBackends())('getMessagingOverview on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await seed(db);
  });
  afterEach(async () => {
    await database.dispose();
  });

  const overview = async (actor: Viewer, filters: Partial<OverviewFilters> = {}): Promise<Ok> => {
    const result = await getMessagingOverview({ database: db, actor, choice, filters: { ...noFilters, ...filters }, now });
    if (result.status !== 'ok') throw new Error('expected figures');
    return result;
  };

  it('counts every figure for an admin (everyone, unsuppressed)', async () => {
    const page = await overview(admin);
    expect(page.period.start).toBe('2026-01-05');
    expect(page.period.end).toBe('2026-01-18');
    expect(page.suppressed).toBe(false);
    // 18 outbound and 8 inbound messages in the period, 13 patients (A9's message of the 20th is outside).
    expect(page.selection).toEqual({ messages: 26, patients: 13, syntheticPatients: 13 });
    expect(page.totalsByChannel).toEqual([
      { group: 'sms', outbound: 15, inbound: 6 },
      { group: 'whatsapp', outbound: 3, inbound: 2 },
    ]);
    expect(page.totalsByCategory).toEqual([
      { group: 'check-in', outbound: 1, inbound: 0 },
      { group: 'education', outbound: 1, inbound: 0 },
      { group: 'none', outbound: 0, inbound: 8 },
      { group: 'refill', outbound: 2, inbound: 0 },
      { group: 'reminder', outbound: 14, inbound: 0 },
    ]);
    expect(page.daily).toEqual([
      { key: '2026-01-05', group: 'sms', outbound: 13, inbound: 4 },
      { key: '2026-01-06', group: 'sms', outbound: 0, inbound: 1 },
      { key: '2026-01-12', group: 'sms', outbound: 2, inbound: 1 },
      { key: '2026-01-12', group: 'whatsapp', outbound: 2, inbound: 1 },
      { key: '2026-01-13', group: 'whatsapp', outbound: 1, inbound: 0 },
      { key: '2026-01-15', group: 'whatsapp', outbound: 0, inbound: 1 },
    ]);
    expect(page.weeklyByChannel).toEqual([
      { key: '2026-01-05', group: 'sms', outbound: 13, inbound: 5 },
      { key: '2026-01-12', group: 'sms', outbound: 2, inbound: 1 },
      { key: '2026-01-12', group: 'whatsapp', outbound: 3, inbound: 2 },
    ]);
    expect(page.weeklyByCategory).toContainEqual({ key: '2026-01-12', group: 'reminder', outbound: 1, inbound: 0 });
    // sms: 15 out, delivered 11 A + 2 B, none read, replied A1–A3, B1 and A7's second; whatsapp: A5 read and
    // replied, A6 failed, A8 delivered and replied by reference.
    expect(page.outcomes).toEqual([
      {
        channel: 'sms',
        outbound: 15,
        delivered: rateOf(13, 15),
        read: rateOf(0, 13),
        replied: rateOf(5, 15),
        failed: rateOf(0, 15),
      },
      {
        channel: 'whatsapp',
        outbound: 3,
        delivered: rateOf(2, 3),
        read: rateOf(1, 2),
        replied: rateOf(2, 3),
        failed: rateOf(1, 3),
      },
      {
        channel: 'all',
        outbound: 18,
        delivered: rateOf(15, 18),
        read: rateOf(1, 15),
        replied: rateOf(7, 18),
        failed: rateOf(1, 18),
      },
    ]);
    expect(page.failureReasons).toEqual([{ code: '131026', title: 'Message undeliverable', messages: 1 }]);
    expect(page.optOutsByWeek).toEqual([
      { week: '2026-01-05', source: 'profile', events: 1 },
      { week: '2026-01-12', source: 'clinician', events: 1 },
      { week: '2026-01-12', source: 'keyword', events: 1 },
    ]);
    expect(page.optOutsByGroup).toEqual([
      { channel: 'sms', purpose: 'education', source: 'clinician', events: 1 },
      { channel: 'sms', purpose: 'reminders', source: 'profile', events: 1 },
      { channel: 'whatsapp', purpose: 'reminders', source: 'keyword', events: 1 },
    ]);
    expect(page.stopReplies).toEqual([{ week: '2026-01-12', channel: 'whatsapp', replies: 1 }]);
    expect(page.programmes).toEqual([
      { programme: 'fixed-daily', patients: 4, byChannel: [{ channel: 'sms', patients: 4 }] },
      { programme: 'not-enrolled', patients: 8, byChannel: [{ channel: 'none', patients: 8 }] },
      { programme: 'personalised', patients: 1, byChannel: [{ channel: 'whatsapp', patients: 1 }] },
    ]);
    expect(page.programmePatients).toBe(13);
    expect(page.nextSends).toEqual({
      days: [
        { day: '2026-02-01', sends: 1 },
        { day: '2026-02-02', sends: 1 },
        { day: '2026-02-03', sends: 1 },
        { day: '2026-02-04', sends: 0 },
        { day: '2026-02-05', sends: 0 },
        { day: '2026-02-06', sends: 0 },
        { day: '2026-02-07', sends: 0 },
      ],
      total: 3,
      next: '2026-02-01T09:00:00Z',
    });
  });

  it('shows a clinician only their organisation', async () => {
    const page = await overview(clinician);
    expect(page.scope).toBe('organisation');
    expect(page.selection).toEqual({ messages: 23, patients: 11, syntheticPatients: 11 });
    expect(page.outcomes.at(-1)).toEqual({
      channel: 'all',
      outbound: 16,
      delivered: rateOf(13, 16),
      read: rateOf(1, 13),
      replied: rateOf(6, 16),
      failed: rateOf(1, 16),
    });
    expect(page.optOutsByWeek).toEqual([
      { week: '2026-01-05', source: 'profile', events: 1 },
      { week: '2026-01-12', source: 'keyword', events: 1 },
    ]);
    expect(page.programmePatients).toBe(11);
    expect(page.nextSends.total).toBe(2);
  });

  it('narrows by channel, persona and product', async () => {
    const whatsapp = await overview(admin, { channel: 'whatsapp' });
    expect(whatsapp.selection).toEqual({ messages: 5, patients: 3, syntheticPatients: 3 });
    expect(whatsapp.optOutsByGroup).toEqual([{ channel: 'whatsapp', purpose: 'reminders', source: 'keyword', events: 1 }]);
    const email = await overview(admin, { channel: 'email' });
    expect(email.selection.messages).toBe(0);
    expect(email.optOutsByWeek).toEqual([]);

    // Persona steady: A1–A6 — six SMS reminders, A5's and A6's WhatsApp messages, and the answers of A1–A5.
    const steady = await overview(admin, { persona: 'steady' });
    expect(steady.totalsByChannel).toEqual([
      { group: 'sms', outbound: 6, inbound: 4 },
      { group: 'whatsapp', outbound: 2, inbound: 1 },
    ]);
    expect(steady.programmePatients).toBe(6);

    // The statin: A1 by regimen, B1 by dispensing.
    const statin = await overview(admin, { productId: 'statin' });
    expect(statin.selection).toEqual({ messages: 4, patients: 2, syntheticPatients: 2 });
    expect(statin.nextSends.total).toBe(2);

    const unknown = await overview(admin, { persona: 'nobody', productId: 'nothing' });
    expect(unknown.filterProblem).toContain('persona');
    expect(unknown.filterProblem).toContain('product');
    expect(unknown.selection.messages).toBe(26);
  });

  it('hides groups of fewer than 11 patients from a viewer whose aggregates are suppressed', async () => {
    const page = await overview(official);
    expect(page.suppressed).toBe(true);
    expect(page.tooFew).toBe(false);
    expect(page.selection).toEqual({ messages: 26, patients: 13, syntheticPatients: 13 });
    // The 13 SMS patients are shown; WhatsApp's 3 are not.
    expect(page.totalsByChannel).toEqual([
      { group: 'sms', outbound: 15, inbound: null },
      { group: 'whatsapp', outbound: null, inbound: null },
    ]);
    expect(page.daily[0]).toEqual({ key: '2026-01-05', group: 'sms', outbound: 13, inbound: null });
    expect(page.outcomes.map((row) => [row.channel, row.outbound, row.replied])).toEqual([
      ['sms', 15, rateOf(5, 15)],
      ['whatsapp', null, null],
      ['all', 18, rateOf(7, 18)],
    ]);
    expect(page.failureReasons).toEqual([{ code: '131026', title: 'Message undeliverable', messages: null }]);
    expect(page.optOutsByWeek.every((row) => row.events === null)).toBe(true);
    expect(page.programmes.find((row) => row.programme === 'fixed-daily')?.patients).toBeNull();
    expect(page.programmePatients).toBe(13);
    expect(page.nextSends.total).toBeNull();
    expect(page.nextSends.next).toBeNull();

    // Fewer than 11 patients in the whole selection: no figures at all.
    const few = await overview(official, { persona: 'steady' });
    expect(few.tooFew).toBe(true);
    expect(few.selection.patients).toBeNull();
    expect(few.outcomes).toEqual([]);
  });
});
