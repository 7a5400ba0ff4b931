import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, consentEvents, doseEvents, messages, organisationMemberships, organisations, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { Role } from '@/lib/domain/roles';
import { findWhatsappAnalysis } from './find-whatsapp-analysis';

const now = new Date(Date.UTC(2026, 10, 1, 12));
const hour = 3_600_000;
// Thursday 29 October 2026, 09:00 UTC (New York is on summer time, UTC−4, until 1 November).
const day0 = Date.UTC(2026, 9, 29, 9);
const at = (hours: number) => new Date(day0 + hours * hour);
const admin = { id: 'admin-user', role: 'admin' as Role };
const clinician = { id: 'clinician-1', role: 'clinician' as Role };
const official = { id: 'official-user', role: 'government-official' as Role };
const whatsapp = { channel: 'whatsapp' as const, persona: null, productId: null };

describe.each(testDatabaseBackends())('WhatsApp analysis of the message store on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db.insert(authUsers).values({ id: 'clinician-1', name: 'C', email: 'c@x.test' });
    await db.insert(organisations).values([
      { id: 'org-a', name: 'A' },
      { id: 'org-b', name: 'B' },
    ]);
    await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
    const busy = await db
      .insert(patients)
      .values(
        Array.from({ length: 12 }, (_, index) => ({
          pseudonym: `B-${index}`,
          source: 'test',
          sourceRecordId: `b${index}`,
          persona: 'busy-professional',
          organisationId: 'org-a',
          timezone: index < 6 ? 'America/New_York' : null,
        })),
      )
      .returning({ id: patients.id });
    const forgetful = await db
      .insert(patients)
      .values(
        Array.from({ length: 3 }, (_, index) => ({
          pseudonym: `F-${index}`,
          source: 'test',
          sourceRecordId: `f${index}`,
          persona: 'forgetful-older-adult',
          organisationId: 'org-b',
        })),
      )
      .returning({ id: patients.id });
    let record = 0;
    const message = (
      patientId: string,
      direction: 'outbound' | 'inbound',
      sentAt: Date,
      extra: Partial<typeof messages.$inferInsert> = {},
    ): typeof messages.$inferInsert => ({
      patientId,
      channel: 'whatsapp',
      direction,
      sentAt,
      status: direction === 'outbound' ? 'delivered' : 'received',
      source: 'test',
      sourceRecordId: `m${record++}`,
      ...extra,
    });
    const rows: (typeof messages.$inferInsert)[] = [];
    busy.forEach((patient, index) => {
      rows.push(message(patient.id, 'outbound', at(0), { templateId: 'reminder.gain.1' }));
      if (index < 9) {
        const text = index < 6 ? 'Taken' : index < 8 ? 'Feeling dizzy on them' : 'Can I take it with food?';
        rows.push(message(patient.id, 'inbound', new Date(day0 + 10 * 60_000), { replyText: text }));
      }
      rows.push(message(patient.id, 'outbound', at(24), { templateId: 'check-in.neutral.1' }));
      if (index < 3) rows.push(message(patient.id, 'inbound', at(26), { replyText: 'Thanks' }));
      // 25 h after the check-in: not a reply to it, but an opt-out put down to it.
      if (index === 3) rows.push(message(patient.id, 'inbound', at(49), { replyText: 'STOP' }));
    });
    // A live message and its reply, matched by the provider id (30 minutes).
    rows.push(message(busy[0]!.id, 'outbound', at(47), { templateId: 'refill.neutral.1', providerMessageId: 'wamid.1' }));
    rows.push(
      message(busy[0]!.id, 'inbound', at(47.5), {
        providerMessageId: 'wamid.2',
        replyToProviderMessageId: 'wamid.1',
        inboundReading: {
          content: { kind: 'text', text: 'Run out' },
          interpretation: { kind: 'reply', reply: { intent: 'missed', reason: 'ran-out' } },
        },
      }),
    );
    // Another channel, and before the period: never counted on the WhatsApp view.
    rows.push(message(busy[0]!.id, 'outbound', at(0), { channel: 'sms', templateId: 'reminder.gain.1' }));
    rows.push(message(busy[0]!.id, 'inbound', at(1), { channel: 'sms', replyText: 'Taken' }));
    rows.push(message(busy[0]!.id, 'outbound', new Date(day0 - 800 * 24 * hour), { templateId: 'reminder.gain.1' }));
    for (const patient of forgetful) rows.push(message(patient.id, 'outbound', at(0), { templateId: 'reminder.gain.1' }));
    await db.insert(messages).values(rows);
    // Four doses confirmed 5 minutes after the reminder; a fifth confirmed a minute before it.
    await db.insert(doseEvents).values([
      ...busy.slice(0, 4).map((patient, index) => ({
        patientId: patient.id,
        scheduledAt: at(0),
        confirmedAt: new Date(day0 + 5 * 60_000),
        status: 'taken' as const,
        source: 'test',
        sourceRecordId: `d${index}`,
      })),
      {
        patientId: busy[4]!.id,
        scheduledAt: at(0),
        confirmedAt: new Date(day0 - 60_000),
        status: 'taken' as const,
        source: 'test',
        sourceRecordId: 'd4',
      },
      // A missed dose this morning: the period (which ends on the last day with data) runs to today.
      {
        patientId: busy[11]!.id,
        scheduledAt: new Date(now.getTime() - 4 * hour),
        status: 'missed' as const,
        source: 'test',
        sourceRecordId: 'd5',
      },
    ]);
    await db.insert(consentEvents).values([
      // The STOP reply's own ledger entry: the reply already counts it.
      {
        patientId: busy[3]!.id,
        channel: 'whatsapp',
        purpose: 'reminders',
        granted: false,
        source: 'whatsapp-keyword',
        effectiveAt: at(49),
      },
      // A clinician's opt-out three hours after the check-in.
      { patientId: busy[5]!.id, channel: 'whatsapp', purpose: 'reminders', granted: false, source: 'clinician', effectiveAt: at(27) },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('gives an admin every figure of the scope, by the documented rules', async () => {
    const page = await findWhatsappAnalysis({ database: database.database, actor: admin, filters: whatsapp, now });
    if (page.status !== 'ok' || page.analysis === null) throw new Error('expected figures');
    expect(page).toMatchObject({ suppressed: false, tooFew: false, patients: 15 });
    const { analysis } = page;
    // 28 WhatsApp messages: 9 reminders, 3 check-ins (within 24 h) and the live refill answered.
    expect(analysis.replies).toMatchObject({ suppressed: false, count: 13, of: 28, patients: 15 });
    if (analysis.replies.suppressed) throw new Error('expected a rate');
    expect(analysis.replies.low).toBeCloseTo(0.2953156998279538, 10);
    expect(analysis.replies.high).toBeCloseTo(0.6418731076553209, 10);
    expect(
      analysis.byPersona.map((entry) => [entry.persona, entry.replies.suppressed ? null : [entry.replies.count, entry.replies.of]]),
    ).toEqual([
      ['busy-professional', [13, 25]],
      ['forgetful-older-adult', [0, 3]],
    ]);
    // 9 × 10 min, 30 min, 3 × 120 min: the median is the 7th of 13, p90 at rank 10.8 between two 120s.
    expect(analysis.replyTimes).toEqual({ count: 13, medianMinutes: 10, p90Minutes: 120, bins: [0, 9, 1, 0, 3, 0, 0, 0] });
    expect(analysis.inbound).toBe(14);
    expect(analysis.heatMapUtcFallback).toBe(3);
    // Thursday (3): six New York replies at 05:10 local, three UTC ones at 09:10; Friday 07:00 New York; Saturday 04:30 and 06:00.
    expect(analysis.heatMap[3]![5]).toBe(6);
    expect(analysis.heatMap[3]![9]).toBe(3);
    expect(analysis.heatMap[4]![7]).toBe(3);
    expect(analysis.heatMap[5]![4]).toBe(1);
    expect(analysis.heatMap[5]![6]).toBe(1);
    expect(analysis.heatMap.flat().reduce<number>((total, count) => total + (count ?? 0), 0)).toBe(14);
    expect(analysis.intents.map((entry) => [entry.intent, entry.reason, entry.figure.suppressed ? null : entry.figure.count])).toEqual([
      ['taken', null, 6],
      ['missed', 'ran-out', 1],
      ['missed', 'side-effects', 2],
      ['question', null, 1],
      ['stop', null, 1],
      ['other', null, 3],
    ]);
    const reminder = analysis.templates.find((entry) => entry.templateId === 'reminder.gain.1')!;
    expect(reminder).toMatchObject({ messages: 15, patients: 15 });
    if (reminder.replies.suppressed || reminder.doseConfirmations.suppressed) throw new Error('expected rates');
    // Wilson 95%: 9 of 15 → 0.3575–0.8018; 4 of 15 → 0.1090–0.5195.
    expect(reminder.replies).toMatchObject({ count: 9, of: 15, rate: 0.6 });
    expect(reminder.replies.low).toBeCloseTo(0.357468301206246, 10);
    expect(reminder.replies.high).toBeCloseTo(0.8017550385865841, 10);
    expect(reminder.doseConfirmations).toMatchObject({ count: 4, of: 15 });
    expect(reminder.doseConfirmations.low).toBeCloseTo(0.10897453325692374, 10);
    expect(reminder.doseConfirmations.high).toBeCloseTo(0.5195043405598057, 10);
    const checkIn = analysis.templates.find((entry) => entry.templateId === 'check-in.neutral.1')!;
    expect(checkIn.replies).toMatchObject({ count: 3, of: 12 });
    if (checkIn.replies.suppressed) throw new Error('expected a rate');
    expect(checkIn.replies.low).toBeCloseTo(0.08894166839405471, 10);
    expect(checkIn.replies.high).toBeCloseTo(0.5323053349335657, 10);
    expect(checkIn.doseConfirmations).toMatchObject({ count: 0, of: 12 });
    expect(analysis.templates.map((entry) => entry.templateId)).toEqual(['reminder.gain.1', 'check-in.neutral.1', 'refill.neutral.1']);
    expect(analysis.optOuts).toEqual([
      { templateId: 'check-in.neutral.1', persona: 'busy-professional', figure: { suppressed: false, count: 2, patients: 2 } },
    ]);
  });

  it('gives a clinician their organisation only', async () => {
    const page = await findWhatsappAnalysis({ database: database.database, actor: clinician, filters: whatsapp, now });
    if (page.status !== 'ok' || page.analysis === null) throw new Error('expected figures');
    expect(page).toMatchObject({ scope: 'organisation', patients: 12, suppressed: false });
    expect(page.analysis.replies).toMatchObject({ count: 13, of: 25 });
    expect(page.options.personas).toEqual(['busy-professional']);
  });

  it('hides every figure over fewer than 11 patients from a viewer whose aggregates are suppressed', async () => {
    const page = await findWhatsappAnalysis({ database: database.database, actor: official, filters: whatsapp, now });
    if (page.status !== 'ok' || page.analysis === null) throw new Error('expected figures');
    expect(page).toMatchObject({ suppressed: true, patients: 15, tooFew: false });
    const { analysis } = page;
    expect(analysis.replies).toMatchObject({ suppressed: false, count: 13, of: 28 });
    expect(analysis.byPersona).toEqual([
      { persona: 'busy-professional', replies: expect.objectContaining({ suppressed: false, count: 13 }) },
      { persona: 'forgetful-older-adult', replies: { suppressed: true } },
    ]);
    // Nine patients answered: too few for the distribution, any heat-map cell, intent or opt-out.
    expect(analysis.replyTimes).toBeNull();
    expect(analysis.heatMap.flat().filter((cell) => cell !== 0 && cell !== null)).toEqual([]);
    expect(analysis.heatMap[3]![5]).toBeNull();
    expect(analysis.intents.every((entry) => entry.figure.suppressed)).toBe(true);
    expect(analysis.optOuts.every((entry) => entry.figure.suppressed)).toBe(true);
    const refill = analysis.templates.find((entry) => entry.templateId === 'refill.neutral.1')!;
    expect(refill).toEqual({
      templateId: 'refill.neutral.1',
      messages: null,
      patients: null,
      replies: { suppressed: true },
      doseConfirmations: { suppressed: true },
    });
    expect(analysis.templates.find((entry) => entry.templateId === 'check-in.neutral.1')?.messages).toBe(12);

    const few = await findWhatsappAnalysis({
      database: database.database,
      actor: official,
      filters: { ...whatsapp, persona: 'forgetful-older-adult' },
      now,
    });
    expect(few).toMatchObject({ status: 'ok', tooFew: true, analysis: null, patients: null });
  });

  it('narrows to the channel chosen', async () => {
    const page = await findWhatsappAnalysis({ database: database.database, actor: admin, filters: { ...whatsapp, channel: 'sms' }, now });
    if (page.status !== 'ok' || page.analysis === null) throw new Error('expected figures');
    expect(page.patients).toBe(1);
    expect(page.analysis.replies).toMatchObject({ count: 1, of: 1 });
    expect(page.analysis.intents.map((entry) => entry.intent)).toEqual(['taken']);
  });
});
