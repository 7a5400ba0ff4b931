import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  authUsers,
  consentEvents,
  dispensings,
  doseEvents,
  jobs,
  messages,
  organisationMemberships,
  organisations,
  patientPersonaPosteriors,
  patients,
  policyDecisions,
  regimens,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { fillDecisionRewards } from './fill-decision-rewards';
import { planMessagingDay } from './plan-messaging-day';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import { createMessagingPlanHandler, ensureMessagingTick, messagingTickKey, runMessagingTick } from './run-messaging-tick';
import { messagingPlanJobKind } from '@/lib/messaging-job-kinds';
import { setMessagingProgramme } from './set-messaging-programme';
import { observedReward } from '@/engine/policy/personalised';

// 06:00 UTC: 07:00 in Madrid (planned from 04:00), 01:00 in New York (not yet), 15:00 in Tokyo.
const now = new Date('2026-11-24T06:00:00Z');
const hourMs = 3_600_000;

describe.each(testDatabaseBackends())('daily messaging loop on $name', (backend) => {
  let database: TestDatabase;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    database = await backend.create();
    const rows = await database.database
      .insert(patients)
      .values([
        {
          pseudonym: 'MADRID',
          source: 'test',
          sourceRecordId: 'm',
          timezone: 'Europe/Madrid',
          messagingProgramme: 'fixed-daily',
          persona: 'busy-professional',
          ageBand: '35-44',
          sex: 'male',
          preferredChannel: 'whatsapp',
        },
        { pseudonym: 'NEWYORK', source: 'test', sourceRecordId: 'n', timezone: 'America/New_York', messagingProgramme: 'fixed-daily' },
        { pseudonym: 'TOKYO', source: 'test', sourceRecordId: 't', timezone: 'Asia/Tokyo', messagingProgramme: 'fixed-weekly' },
        { pseudonym: 'NOTENROLLED', source: 'test', sourceRecordId: 'x', timezone: 'Europe/Madrid' },
      ])
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    for (const row of rows) ids[row.pseudonym] = row.id;
  });
  afterEach(async () => {
    await database.dispose();
  });

  const decisionsOf = (patientId: string) =>
    database.database
      .select({
        id: policyDecisions.id,
        localDate: policyDecisions.localDate,
        status: policyDecisions.status,
        statusReason: policyDecisions.statusReason,
        scheduledFor: policyDecisions.scheduledFor,
        templateId: policyDecisions.templateId,
        randomSeed: policyDecisions.randomSeed,
        context: policyDecisions.context,
        reward: policyDecisions.reward,
        rewardedAt: policyDecisions.rewardedAt,
      })
      .from(policyDecisions)
      .where(eq(policyDecisions.patientId, patientId));
  const sendJobs = () =>
    database.database
      .select({ payload: jobs.payload, runAt: jobs.runAt, dedupeKey: jobs.dedupeKey })
      .from(jobs)
      .where(eq(jobs.kind, 'message-send'));

  it('plans each enrolled patient whose local day has reached the planning time once: one decision, one send job, whatever the reruns', async () => {
    const db = database.database;
    // Batches of one: reading the next batch while the previous one is written gives the same result.
    const first = await planMessagingDay({ database: db, now, batchSize: 1 });
    expect(first).toMatchObject({ patients: 3, decisions: 2, messagesPlanned: 1, jobsEnqueued: 1, notYetDue: 1, alreadyPlanned: 0 });
    // Tokyo's weekly check-in is on Mondays; 24 November 2026 is a Tuesday.
    expect(await decisionsOf(ids.TOKYO!)).toMatchObject([
      { localDate: '2026-11-24', status: 'no-message', statusReason: 'policy', scheduledFor: null },
    ]);
    const [madrid] = await decisionsOf(ids.MADRID!);
    // 08:00 in Madrid (CET, UTC+1) is 07:00 UTC.
    expect(madrid).toMatchObject({ localDate: '2026-11-24', status: 'planned', templateId: 'reminder.neutral.1' });
    expect(madrid!.scheduledFor!.toISOString()).toBe('2026-11-24T07:00:00.000Z');
    expect(madrid!.randomSeed).toBe(`${ids.MADRID}|2026-11-24|fixed-daily@1`);
    expect(madrid!.context).toMatchObject({ timeZone: 'Europe/Madrid', persona: 'busy-professional', minuteOfDay: 7 * 60, weekday: 2 });
    expect(await decisionsOf(ids.NEWYORK!)).toEqual([]);
    expect(await decisionsOf(ids.NOTENROLLED!)).toEqual([]);
    const [job] = await sendJobs();
    expect(job).toEqual({ payload: { decisionId: madrid!.id }, runAt: madrid!.scheduledFor, dedupeKey: `message-send:${madrid!.id}` });

    // Again an hour later, and twice at once: nothing new for Madrid and Tokyo; New York still before 04:00.
    const again = await Promise.all([
      planMessagingDay({ database: db, now: new Date(now.getTime() + hourMs) }),
      planMessagingDay({ database: db, now }),
    ]);
    expect(again.map((result) => result.decisions)).toEqual([0, 0]);
    expect(await sendJobs()).toHaveLength(1);
    expect(await db.select({ id: policyDecisions.id }).from(policyDecisions)).toHaveLength(2);

    // 10:00 UTC is 05:00 in New York: planned now; its missing features are listed.
    const later = await planMessagingDay({ database: db, now: new Date('2026-11-24T10:00:00Z') });
    expect(later).toMatchObject({ decisions: 1, alreadyPlanned: 2 });
    const [newYork] = await decisionsOf(ids.NEWYORK!);
    expect(newYork!.scheduledFor!.toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(newYork!.context).toMatchObject({ missingFeatures: ['persona', 'ageBand', 'sex', 'preferredChannel', 'firstDoseMinute'] });
    // The next day: Madrid's second day of the programme; yesterday's 08:00 message is 24 h old at 08:00 (cap: 2 in 24 h).
    await planMessagingDay({ database: db, now: new Date('2026-11-25T06:00:00Z') });
    const madridDays = (await decisionsOf(ids.MADRID!)).sort((a, b) => a.localDate.localeCompare(b.localDate));
    expect(madridDays.map((day) => [day.localDate, day.status, (day.context as { dayIndex: number }).dayIndex])).toEqual([
      ['2026-11-24', 'planned', 0],
      ['2026-11-25', 'planned', 1],
    ]);
  });

  it('builds the context from the patient’s records and skips patients not named', async () => {
    const db = database.database;
    const patientId = ids.MADRID!;
    await db
      .insert(regimens)
      .values({ patientId, dosesPerDay: 1, doseTimes: ['07:30'], startDate: '2026-01-01', source: 'test', sourceRecordId: 'r' });
    await db
      .insert(dispensings)
      .values({ patientId, medicationCode: 'A', dispensedOn: '2026-11-10', daysSupply: 30, source: 'test', sourceRecordId: 'd' });
    await db.insert(doseEvents).values(
      [1, 2, 3].map((daysAgo) => ({
        patientId,
        scheduledAt: new Date(now.getTime() - daysAgo * 24 * hourMs),
        status: daysAgo === 2 ? ('missed' as const) : ('taken' as const),
        source: daysAgo === 1 ? 'whatsapp-reply' : 'app',
        sourceRecordId: `e${daysAgo}`,
      })),
    );
    await db.insert(messages).values([
      {
        patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        category: 'reminder',
        sentAt: new Date(now.getTime() - 2 * 24 * hourMs),
        status: 'read',
        source: 'test',
        sourceRecordId: 'o1',
      },
      {
        patientId,
        channel: 'whatsapp',
        direction: 'inbound',
        sentAt: new Date(now.getTime() - 45 * 24 * hourMs),
        status: 'received',
        source: 'test',
        sourceRecordId: 'i1',
      },
    ]);
    const result = await planMessagingDay({ database: db, now, patientIds: [patientId] });
    expect(result).toMatchObject({ patients: 1, decisions: 1 });
    const [decision] = await decisionsOf(patientId);
    expect(decision!.context).toMatchObject({
      firstDoseMinute: 450,
      features: { productCount: 1, doseObserver: 'whatsapp', preferredChannel: 'whatsapp' },
      recentHistory: { dosesScheduledLast7Days: 3, dosesConfirmedLast7Days: 2, daysSinceLastReply: 45, estimatedDaysOfSupplyLeft: 16 },
      messageCounts: { last7Days: 1, last28Days: 1, total: 1, repliesLast28Days: 0 },
    });
    expect(decision!.context).not.toHaveProperty('missingFeatures');
    // The second message of the patient's history: the second variant.
    expect(decision!.templateId).toBe('reminder.neutral.2');
    expect(await db.select({ id: policyDecisions.id }).from(policyDecisions)).toHaveLength(1);
  });

  it('puts the patient’s stored survey persona posterior into the decision context, and nothing for a patient without one', async () => {
    const db = database.database;
    const posterior = {
      'busy-professional': 0.6,
      'forgetful-older-adult': 0.1,
      'medication-sceptic': 0.1,
      'cost-constrained': 0.1,
      'engaged-self-manager': 0.05,
      'newly-diagnosed': 0.05,
    };
    const updatedAt = new Date('2026-11-20T09:00:00Z');
    await db.insert(patientPersonaPosteriors).values({ patientId: ids.MADRID!, posterior, answers: 4, updatedAt });
    // Tokyo's row names a persona list that is not the current one: ignored rather than guessed at.
    await db.insert(patientPersonaPosteriors).values({ patientId: ids.TOKYO!, posterior: { 'someone-else': 1 }, answers: 1, updatedAt });
    await planMessagingDay({ database: db, now, patientIds: [ids.MADRID!, ids.TOKYO!] });
    const [madrid] = await decisionsOf(ids.MADRID!);
    expect(madrid!.context).toMatchObject({ surveyPersona: { posterior, answers: 4, updatedAt: updatedAt.toISOString() } });
    const [tokyo] = await decisionsOf(ids.TOKYO!);
    expect(tokyo!.context).not.toHaveProperty('surveyPersona');
  });

  it('gives the day up when the frequency cap is reached at the send time, and enqueues nothing', async () => {
    const db = database.database;
    const patientId = ids.MADRID!;
    await db.insert(messages).values(
      [1, 2].map((hoursAgo) => ({
        patientId,
        channel: 'sms' as const,
        direction: 'outbound' as const,
        category: 'education',
        sentAt: new Date(now.getTime() - hoursAgo * hourMs),
        status: 'delivered',
        source: 'test',
        sourceRecordId: `cap-${hoursAgo}`,
      })),
    );
    expect(await planMessagingDay({ database: db, now, patientIds: [patientId] })).toMatchObject({
      decisions: 1,
      messagesPlanned: 0,
      jobsEnqueued: 0,
    });
    expect(await decisionsOf(patientId)).toMatchObject([{ status: 'not-sent', statusReason: 'frequency-cap', scheduledFor: null }]);
    expect(await sendJobs()).toEqual([]);
  });

  it('devSendNow schedules at now, even before the planning time, and says so', async () => {
    const result = await planMessagingDay({ database: database.database, now, patientIds: [ids.NEWYORK!], devSendNow: true });
    expect(result).toMatchObject({ decisions: 1, jobsEnqueued: 1 });
    const [decision] = await decisionsOf(ids.NEWYORK!);
    expect(decision!.scheduledFor!.toISOString()).toBe(now.toISOString());
    expect(decision).toMatchObject({ status: 'planned', statusReason: null, context: { devSendNow: true } });
    expect(decision!.context).not.toHaveProperty('sendTimeMoved');
  });

  it('devSendNow on a day already decided: an unsent message (planned, or given up for quiet hours) is due now', async () => {
    const db = database.database;
    // 21:30 in Madrid: the tick gives the day's 08:00 message up (quiet hours until tomorrow).
    const evening = new Date('2026-11-24T20:30:00Z');
    await planMessagingDay({ database: db, now: evening, patientIds: [ids.MADRID!] });
    expect(await decisionsOf(ids.MADRID!)).toMatchObject([{ status: 'not-sent', statusReason: 'quiet-hours' }]);
    const later = new Date(evening.getTime() + 60_000);
    expect(await planMessagingDay({ database: db, now: later, patientIds: [ids.MADRID!], devSendNow: true })).toMatchObject({
      decisions: 0,
      messagesPlanned: 1,
    });
    const [decision] = await decisionsOf(ids.MADRID!);
    expect(decision).toMatchObject({ status: 'planned', statusReason: null, context: { devSendNow: true } });
    expect(decision!.scheduledFor!.toISOString()).toBe(later.toISOString());
    expect(await sendJobs()).toEqual([{ payload: { decisionId: decision!.id }, runAt: later, dedupeKey: `message-send:${decision!.id}` }]);
    // Again: the queued job is made due at the new now; still one decision and one job.
    const again = new Date(later.getTime() + 60_000);
    await planMessagingDay({ database: db, now: again, patientIds: [ids.MADRID!], devSendNow: true });
    expect(await sendJobs()).toEqual([{ payload: { decisionId: decision!.id }, runAt: again, dedupeKey: `message-send:${decision!.id}` }]);
    // Sent: never again.
    await db.update(policyDecisions).set({ status: 'sent' }).where(eq(policyDecisions.id, decision!.id));
    expect(
      await planMessagingDay({ database: db, now: new Date(again.getTime() + 60_000), patientIds: [ids.MADRID!], devSendNow: true }),
    ).toMatchObject({ messagesPlanned: 0 });
    expect((await sendJobs())[0]!.runAt).toEqual(again);
  });

  it('fills rewards once the patient’s local day is over: the engine’s observed reward, null when no dose was scheduled', async () => {
    const db = database.database;
    await planMessagingDay({ database: db, now });
    const madridId = ids.MADRID!;
    // Madrid's 24 November is 23:00 UTC on the 23rd to 23:00 UTC on the 24th.
    await db.insert(doseEvents).values([
      { patientId: madridId, scheduledAt: new Date('2026-11-24T07:30:00Z'), status: 'taken', source: 'app', sourceRecordId: 'a' },
      { patientId: madridId, scheduledAt: new Date('2026-11-24T19:30:00Z'), status: 'missed', source: 'app', sourceRecordId: 'b' },
      { patientId: madridId, scheduledAt: new Date('2026-11-24T23:30:00Z'), status: 'taken', source: 'app', sourceRecordId: 'c' },
    ]);
    // 24 November in Tokyo (no doses) ended at 15:00 UTC; Madrid's ends at 23:00 UTC.
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-24T14:59:00Z') })).toEqual({ rewarded: 0 });
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-24T22:59:00Z') })).toEqual({ rewarded: 1 });
    expect(await decisionsOf(madridId)).toMatchObject([{ reward: null, rewardedAt: null }]);
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-24T23:00:00Z') })).toEqual({ rewarded: 1 });
    // What the product saw: 2 doses scheduled, 1 confirmed in the app, no reply, no opt-out.
    expect(await decisionsOf(madridId)).toMatchObject([
      { reward: observedReward({ dosesScheduled: 2, dosesConfirmed: 1, replied: false, optedOut: false, doseObserver: 'app' }) },
    ]);
    expect((await decisionsOf(madridId))[0]!.reward).toBeGreaterThan(0);
    const [tokyo] = await decisionsOf(ids.TOKYO!);
    expect(tokyo!.reward).toBeNull();
    expect(tokyo!.rewardedAt).not.toBeNull();
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-25T23:00:00Z') })).toEqual({ rewarded: 0 });
  });

  it('rewards see the day’s reply and an opt-out, as the simulator’s policies do', async () => {
    const db = database.database;
    await planMessagingDay({ database: db, now, patientIds: [ids.MADRID!] });
    const [decision] = await decisionsOf(ids.MADRID!);
    const madridId = ids.MADRID!;
    await db
      .insert(doseEvents)
      .values([
        { patientId: madridId, scheduledAt: new Date('2026-11-24T07:30:00Z'), status: 'taken', source: 'app', sourceRecordId: 'a' },
      ]);
    await db.insert(messages).values([
      {
        patientId: madridId,
        channel: 'whatsapp',
        direction: 'outbound',
        sentAt: new Date('2026-11-24T07:00:00Z'),
        status: 'read',
        policyDecisionId: decision!.id,
        source: 'test',
        sourceRecordId: 'out',
      },
      // A reply within Madrid's day; the one the next day does not count for this day.
      {
        patientId: madridId,
        channel: 'whatsapp',
        direction: 'inbound',
        sentAt: new Date('2026-11-24T07:10:00Z'),
        status: 'received',
        source: 'test',
        sourceRecordId: 'in',
      },
      {
        patientId: madridId,
        channel: 'whatsapp',
        direction: 'inbound',
        sentAt: new Date('2026-11-24T23:10:00Z'),
        status: 'received',
        source: 'test',
        sourceRecordId: 'late',
      },
    ]);
    await db.insert(consentEvents).values([
      {
        patientId: madridId,
        channel: 'whatsapp',
        purpose: 'reminders',
        granted: true,
        source: 'import',
        effectiveAt: new Date('2026-11-01T00:00:00Z'),
      },
      {
        patientId: madridId,
        channel: 'whatsapp',
        purpose: 'reminders',
        granted: false,
        source: 'whatsapp-keyword',
        effectiveAt: new Date('2026-11-24T07:11:00Z'),
      },
    ]);
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-24T23:00:00Z') })).toEqual({ rewarded: 1 });
    const expected = observedReward({ dosesScheduled: 1, dosesConfirmed: 1, replied: true, optedOut: true, doseObserver: 'app' });
    expect(expected).not.toBe(
      observedReward({ dosesScheduled: 1, dosesConfirmed: 1, replied: false, optedOut: false, doseObserver: 'app' }),
    );
    expect((await decisionsOf(madridId))[0]!.reward).toBeCloseTo(expected, 12);
  });

  it('the hourly tick queues exactly one next tick, also when two instances run it at once', async () => {
    const db = database.database;
    const ensured = await ensureMessagingTick({ database: db, now });
    expect(ensured.created).toBe(true);
    expect((await ensureMessagingTick({ database: db, now: new Date(now.getTime() + 60_000) })).created).toBe(false);
    const runs = await Promise.all([
      runMessagingTick({ database: db, now, payload: {} }),
      runMessagingTick({ database: db, now, payload: {} }),
    ]);
    expect(runs[0]!.nextTickJobId).toBe(runs[1]!.nextTickJobId);
    const ticks = await db.select({ key: jobs.dedupeKey, runAt: jobs.runAt }).from(jobs).where(eq(jobs.kind, 'messaging-plan'));
    expect(ticks.map((tick) => tick.key).sort()).toEqual([messagingTickKey(now), 'messaging-plan:2026-11-24T07']);
    expect(ticks.find((tick) => tick.key === 'messaging-plan:2026-11-24T07')!.runAt.toISOString()).toBe('2026-11-24T07:00:00.000Z');
    expect(runs.reduce((total, run) => total + Number(run.decisions), 0)).toBe(2);
    expect(await sendJobs()).toHaveLength(1);
    // A one-off run for named patients does not start a second chain.
    await runMessagingTick({ database: db, now: new Date(now.getTime() + 3 * hourMs), payload: { patientIds: [ids.NEWYORK!] } });
    expect(await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, 'messaging-plan'))).toHaveLength(2);
  });

  it('runs as the messaging-plan job: a bad payload fails at once with the field named; a good one plans', async () => {
    const db = database.database;
    registerJobHandler(
      messagingPlanJobKind,
      createMessagingPlanHandler(
        () => db,
        () => now,
      ),
      { queue: 'messages' },
    );
    const bad = await enqueueJob({ database: db, kind: messagingPlanJobKind, payload: { patientIds: ['not-an-id'] }, runAt: now });
    const good = await enqueueJob({
      database: db,
      kind: messagingPlanJobKind,
      payload: { patientIds: [ids.MADRID!] },
      runAt: new Date(now.getTime() + 1),
    });
    for (const id of [bad.id, good.id]) {
      const job = await claimNextJob({ database: db, kinds: [messagingPlanJobKind], now: new Date(now.getTime() + 1) });
      expect(job?.id).toBe(id);
      await runClaimedJob({ database: db, job: job!, clock: () => now });
    }
    const failed = await getJob({ database: db, id: bad.id });
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed!.error).toContain('patientIds');
    expect(await getJob({ database: db, id: good.id })).toMatchObject({
      status: 'succeeded',
      result: { decisions: 1, messagesPlanned: 1, nextTickJobId: null },
    });
  });

  it('enrolment: admins for anyone, clinicians only in their organisations, others refused; audited', async () => {
    const db = database.database;
    await db.insert(authUsers).values([
      { id: 'admin', name: 'A', email: 'a@example.org' },
      { id: 'clinician', name: 'C', email: 'c@example.org' },
      { id: 'patient', name: 'P', email: 'p@example.org' },
    ]);
    await db.insert(organisations).values({ id: 'clinic', name: 'Clinic' });
    await db.insert(organisationMemberships).values({ userId: 'clinician', organisationId: 'clinic' });
    await db.update(patients).set({ organisationId: 'clinic' }).where(eq(patients.id, ids.NOTENROLLED!));
    const set = (actor: string, role: 'admin' | 'clinician' | 'patient', patientId: string, programme: string | null) =>
      setMessagingProgramme({ database: db, actor: { id: actor, role }, input: { patientId, programme } });

    expect(await set('clinician', 'clinician', ids.NOTENROLLED!, 'fixed-weekly')).toEqual({
      patientId: ids.NOTENROLLED,
      programme: 'fixed-weekly',
    });
    await expect(set('clinician', 'clinician', ids.MADRID!, null)).rejects.toMatchObject({ code: 'not_found' });
    await expect(set('patient', 'patient', ids.NOTENROLLED!, null)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(set('admin', 'admin', ids.MADRID!, 'weekly-ish')).rejects.toMatchObject({ code: 'validation' });
    expect(await set('admin', 'admin', ids.MADRID!, null)).toEqual({ patientId: ids.MADRID, programme: null });
    const programmes = await db.select({ id: patients.id, programme: patients.messagingProgramme }).from(patients);
    expect(programmes.find((row) => row.id === ids.MADRID)!.programme).toBeNull();
    expect(programmes.find((row) => row.id === ids.NOTENROLLED)!.programme).toBe('fixed-weekly');
    const audited = await db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'messaging.programme.set')));
    expect(audited.map((row) => row.outcome).sort()).toEqual(['denied', 'denied', 'success', 'success']);
    // Unenrolled: the loop skips Madrid now, and plans the newly enrolled patient.
    expect(await planMessagingDay({ database: db, now })).toMatchObject({ patients: 3, decisions: 2 });
    expect(await decisionsOf(ids.MADRID!)).toEqual([]);
    expect(await decisionsOf(ids.NOTENROLLED!)).toHaveLength(1);
  });
});
