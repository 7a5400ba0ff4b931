/**
 * Decision 063's rules for surveys by message, through the real path (the offer, the 'survey-message-send' job's
 * use case with recording adapters, the webhook and the 'inbound-message-received' job): an SMS reply both a dose
 * message and a survey message could take is never filed silently under one of them, and nothing but a message
 * answering the patient's reply of minutes ago goes in their quiet hours.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, doseEvents, jobs, messages, surveyMessageChunks, surveyResponses } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { recordConsent } from '@/features/consent';
import { listRepliesToRead } from '@/features/message-replies';
import { twilioInboundEvent } from '@/features/messaging-webhooks';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import { listSurveyMessages } from './list-survey-messages';
import { offerSurveyByMessage } from './offer-survey-by-message';
import { sendSurveyMessage } from './send-survey-message';
import {
  clearSurveyMessageTables,
  createRecordingAdapters,
  insertSurveyTestPatient,
  receiveInboundMessage,
  runSurveyMessageJobs,
} from './test-support/survey-message-harness';
import { testSessionUser } from '@/lib/server/session-testing';

const phone = '+34600333777';
// A weekday at 09:00 UTC (the patient's zone is UTC): outside quiet hours.
const start = new Date('2026-11-25T09:00:00Z').getTime();
const day = 24 * 60 * 60_000;

const clinician = testSessionUser('smr-clinician', 'clinician');

describe.each(testDatabaseBackends())('survey message rules on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;
  let clock = start;
  let counter = 0;
  const { adapters, sent, failSms, reset } = createRecordingAdapters({ prefix: 'smr' });
  const tick = () => new Date((clock += 60_000));
  const smsBody = () => (sent.at(-1) as { body: string } | undefined)?.body ?? '';

  beforeAll(async () => {
    database = await backend.create();
    patientId = await insertSurveyTestPatient(database.database, { prefix: 'smr', phone, staff: [{ user: clinician }] });
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(async () => {
    const db = database.database;
    await clearSurveyMessageTables(db);
    reset();
    // Next day, 09:00 UTC.
    clock = Math.floor(clock / day) * day + day + 9 * 3_600_000;
    await recordConsent({
      database: db,
      patientId,
      channels: ['sms'],
      purposes: ['surveys', 'reminders'],
      granted: true,
      source: 'profile',
      actorUserId: null,
      at: new Date(clock - 1000),
    });
  });

  /** A daily-loop reminder SMS as the send path stores it (its body ends with "Reply 1 = taken…"). */
  async function reminderSms() {
    const at = tick();
    const [row] = await database.database
      .insert(messages)
      .values({
        patientId,
        channel: 'sms',
        direction: 'outbound',
        category: 'reminder',
        framing: 'gain',
        body: 'Time for your medicine. Reply 1 = taken, 2 = not yet, 3 = skip. STOP to opt out.',
        sentAt: at,
        status: 'delivered',
        providerMessageId: `SMrem${(counter += 1)}`,
        source: 'test',
        sourceRecordId: `reminder-${counter}`,
      })
      .returning({ id: messages.id, sentAt: messages.sentAt });
    return row!;
  }

  async function offer(surveyKey: 'lifestyle' | 'adherence-barriers', now = tick()) {
    return offerSurveyByMessage({ database: database.database, actor: clinician, input: { patientId, surveyKey }, now });
  }

  /**
   * Runs the survey-message-send jobs due at the clock, once each, as the worker would; with `all`, those not due
   * yet too, but for the two-day reminders.
   */
  function runSurveyJobs(options: { all?: boolean } = {}) {
    return runSurveyMessageJobs({
      database: database.database,
      adapters,
      now: tick,
      due: (job) => {
        const reminder = (job.payload as { remindChunkId?: string }).remindChunkId !== undefined;
        return job.runAt.getTime() <= clock || (options.all === true && !reminder);
      },
    });
  }

  function smsReply(body: string) {
    const event = twilioInboundEvent({ messageSid: `SMin${(counter += 1)}`, from: phone, body, numMedia: 0, at: tick() });
    return receiveInboundMessage({ database: database.database, event, now: new Date(clock) });
  }

  const doses = () => database.database.select({ status: doseEvents.status, scheduledAt: doseEvents.scheduledAt }).from(doseEvents);
  const answers = async () =>
    (await database.database.select({ answers: surveyResponses.answers }).from(surveyResponses))[0]?.answers ?? {};

  describe('a bare SMS reply while a dose message and a survey message both await', () => {
    it('a reminder, then a one-question survey SMS: "1" is asked about, then "TAKEN" is the dose and "1" the survey', async () => {
      const reminder = await reminderSms();
      await offer('lifestyle');
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms', questions: 1 })]);

      // Without decision 063 this "1" was the survey's "None", and the dose answer was lost.
      const first = await smsReply('1');
      expect(first.outcome).toMatchObject({ kind: 'survey', outcome: 'clarification' });
      expect(await doses()).toEqual([]);
      expect(await answers()).toEqual({});
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms' })]);
      expect(smsBody()).toMatch(/^We could not tell whether your reply answers your medicine reminder or these survey questions\./);
      expect(smsBody()).toContain('TAKEN, NOT YET or SKIP');

      // As the clarification said: a word for the medicine, the number for the survey.
      const taken = await smsReply('TAKEN');
      expect(taken.outcome).toMatchObject({ kind: 'dose', status: 'taken', recorded: true });
      expect(await doses()).toEqual([{ status: 'taken', scheduledAt: reminder.sentAt }]);
      const answered = await smsReply('1');
      expect(answered.outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      expect(await answers()).toEqual({ 'ipaq-vigorous-days': '0' });
      expect(await doses()).toHaveLength(1);
      // Neither is left for a person.
      expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toEqual([]);
    });

    it('after the clarification naming both, a number is the survey’s even while the reminder still awaits', async () => {
      const reminder = await reminderSms();
      await offer('lifestyle');
      await runSurveyJobs();
      await smsReply('1');
      await runSurveyJobs();
      expect((await smsReply('2')).outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      expect(await answers()).toEqual({ 'ipaq-vigorous-days': '1' });
      // The survey's next message goes; the reminder's answer, a word, still finds the reminder, not a survey message.
      await runSurveyJobs();
      expect((await smsReply('skip')).outcome).toMatchObject({ kind: 'dose', status: 'skipped' });
      expect(await doses()).toEqual([{ status: 'skipped', scheduledAt: reminder.sentAt }]);
    });

    it('a survey SMS, then a reminder: "1 3 2" is still the survey’s, "1" the reminder’s, and "2" to one question is asked about', async () => {
      await offer('adherence-barriers');
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms', questions: 3 })]);
      const reminder = await reminderSms();
      // Only the survey reads three numbers: before decision 063 this went to the dose reader, unrecognised.
      expect((await smsReply('1 3 2')).outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      expect(Object.keys(await answers())).toHaveLength(3);
      // The next survey message (two questions) goes; "1" fits the reminder only.
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', questions: 2 })]);
      expect((await smsReply('1')).outcome).toMatchObject({ kind: 'dose', status: 'taken' });
      expect(await doses()).toEqual([{ status: 'taken', scheduledAt: reminder.sentAt }]);
    });

    it('a one-question survey SMS, then a reminder: "2" (not yet, or the second answer) is asked about, not filed as "not yet"', async () => {
      await offer('lifestyle');
      await runSurveyJobs();
      await reminderSms();
      expect((await smsReply('2')).outcome).toMatchObject({ kind: 'survey', outcome: 'clarification' });
      expect(await answers()).toEqual({});
      await runSurveyJobs();
      expect(smsBody()).toContain('medicine reminder');
    });

    it('keeps for a person an ambiguous reply that comes after the one clarification was spent before the reminder', async () => {
      await offer('lifestyle');
      await runSurveyJobs();
      expect((await smsReply('maybe')).outcome).toMatchObject({ kind: 'survey', outcome: 'clarification' });
      await runSurveyJobs();
      // No reminder awaited: the plain clarification.
      expect(smsBody()).toMatch(/^Sorry, we could not read that reply\./);
      await reminderSms();
      const ambiguous = await smsReply('1');
      expect(ambiguous.outcome).toMatchObject({ kind: 'survey', outcome: 'held' });
      expect(await doses()).toEqual([]);
      expect(await answers()).toEqual({});
      expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toEqual([
        expect.objectContaining({ id: ambiguous.messageId, reason: 'survey-unreadable' }),
      ]);
    });

    it('reads "1" as the survey’s when the reminder was already answered', async () => {
      await reminderSms();
      expect((await smsReply('1')).outcome).toMatchObject({ kind: 'dose', status: 'taken' });
      await offer('lifestyle');
      await runSurveyJobs();
      expect((await smsReply('1')).outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      expect(await doses()).toHaveLength(1);
    });
  });

  describe('quiet hours (21:00–08:00 the patient’s time) for every send that answers no reply of minutes ago', () => {
    /** Today at hh:mm UTC (the patient's zone). */
    const at = (hours: number, minutes = 0) => {
      clock = Math.floor(clock / day) * day + hours * 3_600_000 + minutes * 60_000;
      return new Date(clock);
    };
    /** The queued survey-message-send jobs but for the two-day reminders. */
    const surveyJobs = async () =>
      (
        await database.database
          .select({ runAt: jobs.runAt, payload: jobs.payload })
          .from(jobs)
          .where(eq(jobs.kind, surveyMessageSendJobKind))
      ).filter((job) => (job.payload as { remindChunkId?: string }).remindChunkId === undefined);
    const tomorrowAt8 = () => new Date(Math.floor(clock / day) * day + day + 8 * 3_600_000);

    it('a first message whose job runs late (a retry after a provider failure) waits for the morning', async () => {
      const offered = await offer('lifestyle', at(20, 50));
      expect(offered.sendsAt).toBe(new Date(clock).toISOString());
      failSms(true);
      await expect(runSurveyJobs()).rejects.toThrow('provider unavailable');
      expect(await database.database.select({ id: surveyMessageChunks.id }).from(surveyMessageChunks)).toEqual([]);
      // The worker retries it at 22:30: it is queued again for 08:00 and nothing is sent or claimed.
      failSms(false);
      const { responseId } = offered;
      at(22, 30);
      expect(await sendSurveyMessage({ database: database.database, adapters, now: new Date(clock), responseId })).toEqual({
        outcome: 'deferred',
        reason: 'quiet-hours',
        until: tomorrowAt8().toISOString(),
      });
      expect(sent).toEqual([]);
      expect(await surveyJobs()).toContainEqual({ runAt: tomorrowAt8(), payload: { responseId } });
      clock = tomorrowAt8().getTime();
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms' })]);
    });

    it('the next questions answer the patient’s reply at once, even at 21:05, but not when their job runs hours later', async () => {
      await offer('adherence-barriers', at(20, 40));
      await runSurveyJobs();
      at(21, 3);
      expect((await smsReply('1 3 2')).outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      const [queued] = await surveyJobs();
      // Within minutes of the reply: at once, in quiet hours.
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', questions: 2 })]);

      // The same job run two hours later (the provider was down meanwhile): it waits for the morning.
      await database.database.delete(surveyMessageChunks).where(eq(surveyMessageChunks.status, 'awaiting'));
      at(23, 10);
      expect(
        await sendSurveyMessage({
          database: database.database,
          adapters,
          now: new Date(clock),
          ...(queued!.payload as { responseId: string; replyId: string }),
        }),
      ).toEqual({ outcome: 'deferred', reason: 'quiet-hours', until: tomorrowAt8().toISOString() });
      expect(await surveyJobs()).toEqual([{ runAt: tomorrowAt8(), payload: queued!.payload }]);
      expect(sent).toHaveLength(2);
    });

    it('the clarification answers a reply written at 22:10 at once; its job retried at 23:00 waits', async () => {
      await offer('lifestyle', at(20, 30));
      await runSurveyJobs();
      at(22, 10);
      expect((await smsReply('what?')).outcome).toMatchObject({ kind: 'survey', outcome: 'clarification' });
      const [queued] = await surveyJobs();
      const payload = queued!.payload as { responseId: string; clarifyChunkId: string; replyId: string };
      expect(payload.replyId).toEqual(expect.any(String));
      at(23, 0);
      expect(await sendSurveyMessage({ database: database.database, adapters, now: new Date(clock), ...payload })).toEqual({
        outcome: 'deferred',
        reason: 'quiet-hours',
        until: tomorrowAt8().toISOString(),
      });
      at(22, 12);
      expect(await sendSurveyMessage({ database: database.database, adapters, now: new Date(clock), ...payload })).toMatchObject({
        outcome: 'sent',
        channel: 'sms',
      });
    });

    it('a clinician’s new offer after a day without an answer waits for the morning too', async () => {
      await offer('lifestyle', at(10));
      await runSurveyJobs();
      clock += day;
      const again = await offer('lifestyle', at(23, 30));
      expect(again).toMatchObject({ status: 'queued', sendsAt: tomorrowAt8().toISOString() });
      // A job that runs early (a worker clock ahead, a hand-run job) still waits.
      expect(await runSurveyJobs({ all: true })).toEqual([
        { outcome: 'deferred', reason: 'quiet-hours', until: tomorrowAt8().toISOString() },
      ]);
      expect(sent).toHaveLength(1);
    });
  });

  describe('one automatic reminder when a survey message gets no answer for two days', () => {
    const remindJobs = async () =>
      (
        await database.database
          .select({ runAt: jobs.runAt, payload: jobs.payload })
          .from(jobs)
          .where(eq(jobs.kind, surveyMessageSendJobKind))
      ).filter((job) => (job.payload as { remindChunkId?: string }).remindChunkId !== undefined);

    it('sends the same SMS questions once more after two days, then never again; the reminder takes the answer', async () => {
      await offer('adherence-barriers');
      const [first] = await runSurveyJobs();
      expect(first).toMatchObject({ outcome: 'sent', channel: 'sms', questions: 3 });
      const body = smsBody();
      const chunkId = (first as { chunkId: string }).chunkId;
      expect(await remindJobs()).toEqual([
        { runAt: new Date(clock + 2 * day), payload: { responseId: expect.any(String), remindChunkId: chunkId } },
      ]);
      // The care team sees when the one reminder goes if the message stays unanswered.
      const list = () => listSurveyMessages({ database: database.database, actor: clinician, patientId });
      expect(await list()).toEqual([
        expect.objectContaining({
          surveyKey: 'adherence-barriers',
          last: expect.objectContaining({ kind: 'questions', channel: 'sms', status: 'awaiting', questions: 3 }),
          remindedAt: null,
          reminderDueAt: new Date(clock + 2 * day).toISOString(),
        }),
      ]);
      clock += 2 * day;
      const [reminder] = await runSurveyJobs();
      expect(reminder).toMatchObject({ outcome: 'sent', channel: 'sms', questions: 3 });
      // …and that it went, once.
      expect(await list()).toEqual([
        expect.objectContaining({
          last: expect.objectContaining({ status: 'awaiting' }),
          remindedAt: new Date(clock).toISOString(),
          reminderDueAt: null,
        }),
      ]);
      await expect(
        listSurveyMessages({ database: database.database, actor: { id: 'smr-outsider', role: 'clinician' }, patientId }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      expect(
        await database.database
          .select({ outcome: auditLog.outcome, details: auditLog.details })
          .from(auditLog)
          .where(eq(auditLog.actorUserId, 'smr-outsider')),
      ).toEqual([{ outcome: 'denied', details: { role: 'clinician', patientId } }]);
      expect(smsBody()).toBe(`A reminder: your care team’s survey is still waiting for your answer.\n${body}`);
      expect(await remindJobs()).toEqual([]);
      expect((await smsReply('1 3 2')).outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
      // The next message, unanswered too, gets no reminder: one per survey response.
      await runSurveyJobs();
      expect(await remindJobs()).toEqual([]);
      clock += 3 * day;
      expect(await runSurveyJobs()).toEqual([]);
      expect(sent).toHaveLength(3);
      const reasons = await database.database
        .select({ status: surveyMessageChunks.status, reason: surveyMessageChunks.statusReason })
        .from(surveyMessageChunks)
        .orderBy(surveyMessageChunks.createdAt);
      expect(reasons).toEqual([
        { status: 'expired', reason: 'reminded' },
        { status: 'answered', reason: null },
        { status: 'awaiting', reason: null },
      ]);
    });

    it('does nothing for an answered message, and nothing after STOP but record why', async () => {
      await offer('lifestyle');
      await runSurveyJobs();
      await smsReply('1');
      await runSurveyJobs();
      // The first message was answered: its reminder job finds nothing to do; the second's is due with it.
      clock += 2 * day + 60 * 60_000;
      await recordConsent({
        database: database.database,
        patientId,
        channels: ['sms'],
        purposes: ['surveys', 'reminders'],
        granted: false,
        source: 'profile',
        actorUserId: null,
        at: new Date(clock - 1000),
      });
      const outcomes = await runSurveyJobs();
      expect(outcomes).toHaveLength(2);
      expect(outcomes).toEqual(
        expect.arrayContaining([
          { outcome: 'skipped', reason: 'not-awaiting' },
          expect.objectContaining({ outcome: 'not-sent', reason: 'no-consent' }),
        ]),
      );
      expect(sent).toHaveLength(2);
    });

    it('a reminder due in quiet hours waits for the morning', async () => {
      await offer('adherence-barriers', new Date((clock = Math.floor(clock / day) * day + 20 * 3_600_000 + 40 * 60_000)));
      await runSurveyJobs();
      clock = Math.floor(clock / day) * day + 21 * 3_600_000 + 3 * 60_000;
      await smsReply('1 3 2');
      // Answering the reply at 21:04: at once; its reminder is due two days later at 21:05.
      await runSurveyJobs();
      clock += 2 * day;
      const eight = new Date(Math.floor(clock / day) * day + day + 8 * 3_600_000);
      // (The first message's reminder job, its message answered, does nothing.)
      const outcomes = await runSurveyJobs();
      expect(outcomes).toHaveLength(2);
      expect(outcomes).toEqual(
        expect.arrayContaining([
          { outcome: 'skipped', reason: 'not-awaiting' },
          { outcome: 'deferred', reason: 'quiet-hours', until: eight.toISOString() },
        ]),
      );
      expect((await remindJobs()).map((job) => job.runAt)).toEqual([eight]);
      clock = eight.getTime();
      expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', questions: 2 })]);
    });
  });
});
