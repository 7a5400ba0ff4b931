/**
 * A survey by message through the real path (decision 051): the clinician's offer, the 'survey-message-send'
 * job's use case with recording adapters, the provider's webhook recorded by recordWebhookEvents and the
 * 'inbound-message-received' job's use case, which hands a survey reply to the survey before any dose reading.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, doseEvents, jobs, messages, patientPersonaPosteriors, surveyMessageChunks, surveyResponses } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { adherenceBarriersSurvey, nextMessageQuestions } from '@/engine/surveys';
import { recordConsent } from '@/features/consent';
import { actOnInboundMessage, listRepliesToRead } from '@/features/message-replies';
import { twilioInboundEvent, whatsAppInboundEvent } from '@/features/messaging-webhooks';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import { answerSurveyQuestion } from './answer-survey-question';
import { offerSurveyByMessage } from './offer-survey-by-message';
import { sendSurveyMessage } from './send-survey-message';
import { startSurveyResponse } from './start-survey-response';
import {
  clearSurveyMessageTables,
  createRecordingAdapters,
  type InboundEvent,
  insertSurveyTestPatient,
  receiveInboundMessage,
  runSurveyMessageJobs,
} from './test-support/survey-message-harness';
import { testSessionUser as user } from '@/lib/server/session-testing';

const phone = '+34600333555';
const digits = '34600333555';
const start = new Date('2026-11-25T09:00:00Z').getTime();

const clinician = user('sm-clinician', 'clinician');
const otherClinician = user('sm-clinician-out', 'clinician');
// The account insertSurveyTestPatient links to the patient.
const patientUser = user('sm-patient', 'patient');

describe.each(testDatabaseBackends())('surveys by message on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;
  let clock = start;
  let counter = 0;
  const { adapters, sent, reset } = createRecordingAdapters({ prefix: 'sm' });
  const tick = () => new Date((clock += 60_000));

  beforeAll(async () => {
    database = await backend.create();
    patientId = await insertSurveyTestPatient(database.database, {
      prefix: 'sm',
      phone,
      staff: [
        { user: clinician, name: 'C' },
        { user: otherClinician, name: 'O', outOfScope: true },
      ],
    });
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(async () => {
    await clearSurveyMessageTables(database.database);
    reset();
    clock += 24 * 60 * 60_000 * 3;
  });

  const consent = (channels: ('whatsapp' | 'sms')[], granted = true) =>
    recordConsent({
      database: database.database,
      patientId,
      channels,
      purposes: ['surveys'],
      granted,
      source: 'profile',
      actorUserId: null,
      at: new Date(clock - 1000),
    });

  /** Runs the queued survey-message-send jobs once each, as the worker would. */
  function runSurveyJobs() {
    // Those due (a reminder waits two days, decision 063).
    const dueBy = clock + 60_000;
    return runSurveyMessageJobs({ database: database.database, adapters, now: tick, due: (job) => job.runAt.getTime() <= dueBy });
  }

  const reply = (event: InboundEvent) => receiveInboundMessage({ database: database.database, event, now: new Date(clock) });
  const smsReply = (body: string) =>
    reply(twilioInboundEvent({ messageSid: `SMin${(counter += 1)}`, from: phone, body, numMedia: 0, at: tick() }));
  const whatsAppReply = (message: Record<string, unknown>) =>
    reply(
      whatsAppInboundEvent({
        from: digits,
        id: `wamid.in.${(counter += 1)}`,
        timestamp: String(Math.floor(tick().getTime() / 1000)),
        ...message,
      } as never)!,
    );

  /** The demo clinician sends the patient the barrier survey by message. */
  const offerBarrierSurvey = () =>
    offerSurveyByMessage({
      database: database.database,
      actor: clinician,
      input: { patientId, surveyKey: 'adherence-barriers' },
      now: tick(),
    });

  /** The patient opens the barrier survey in the browser and answers it to the end (answer `option` of each question). */
  async function finishInBrowser(option: number) {
    const db = database.database;
    let state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now: tick() });
    while (state.question !== null) {
      const question = state.question;
      state = await answerSurveyQuestion({
        database: db,
        actor: patientUser,
        input: {
          responseId: state.responseId,
          questionId: question.id,
          answer: question.kind === 'choice' ? question.options[option]!.value : 0,
        },
        now: tick(),
      });
    }
    return state;
  }

  it('sends 3 numbered questions by SMS when the WhatsApp window is closed; "1 3 2" answers them, the rest follows, then it completes', async () => {
    const db = database.database;
    await consent(['whatsapp', 'sms']);
    const offered = await offerSurveyByMessage({
      database: db,
      actor: clinician,
      input: { patientId, surveyKey: 'adherence-barriers' },
      now: tick(),
    });
    expect(offered.status).toBe('queued');
    const [first] = await runSurveyJobs();
    // No WhatsApp message from the patient in 24 hours: free-form (interactive) WhatsApp may not open a conversation.
    expect(first).toMatchObject({ outcome: 'sent', channel: 'sms', questions: 3, form: 'sms' });
    const expected = nextMessageQuestions(adherenceBarriersSurvey, {});
    const smsBody = sent.at(-1)!.channel === 'sms' ? (sent.at(-1) as { body: string }).body : '';
    expect(smsBody).toContain(`1. ${expected[0]!.text}`);
    expect(smsBody).toContain(`1 = ${expected[0]!.kind === 'choice' ? expected[0]!.options[0]!.label : ''}`);
    expect(smsBody).toContain('STOP');

    // "1" alone would be a dose answer by SMS; "1 3 2" here is the survey's.
    const answered = await smsReply('1 3 2');
    expect(answered.outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
    const [response] = await db
      .select({ answers: surveyResponses.answers, channel: surveyResponses.channel, completedAt: surveyResponses.completedAt })
      .from(surveyResponses);
    expect(response!.channel).toBe('whatsapp');
    // Answer 1 of the first question, 3 of the second, 2 of the third.
    const value = (index: number, option: number) => {
      const question = expected[index]!;
      return question.kind === 'choice' ? question.options[option]!.value : '';
    };
    expect(response!.answers).toEqual({
      [expected[0]!.id]: value(0, 0),
      [expected[1]!.id]: value(1, 2),
      [expected[2]!.id]: value(2, 1),
    });
    expect(await db.select({ answers: patientPersonaPosteriors.answers }).from(patientPersonaPosteriors)).toEqual([{ answers: 3 }]);
    expect(await db.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);
    // A rerun of the inbound job changes nothing.
    expect(await actOnInboundMessage({ database: db, messageId: answered.messageId, now: new Date(clock) })).toMatchObject({
      kind: 'survey',
      outcome: 'already-handled',
    });

    const [second] = await runSurveyJobs();
    expect(second).toMatchObject({ outcome: 'sent', channel: 'sms', questions: 2 });
    const done = await smsReply('2,2');
    expect(done.outcome).toMatchObject({ kind: 'survey', outcome: 'completed' });
    const [finished] = await db
      .select({ completedAt: surveyResponses.completedAt, summary: surveyResponses.summary })
      .from(surveyResponses);
    expect(finished!.completedAt).not.toBeNull();
    expect(finished!.summary).not.toBeNull();
    expect(await runSurveyJobs()).toEqual([]);
    // Nothing of it is left for a person to read.
    expect(await listRepliesToRead({ database: db, actor: clinician, patientId })).toEqual([]);
  });

  it('inside the WhatsApp window sends one list question as an interactive list, and a list_reply answers it', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    await whatsAppReply({ type: 'text', text: { body: 'hello' } });
    await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'lifestyle' }, now: tick() });
    const [first] = await runSurveyJobs();
    expect(first).toMatchObject({ outcome: 'sent', channel: 'whatsapp', questions: 1, form: 'interactive-list' });
    const message = sent.at(-1)!;
    if (message.channel !== 'whatsapp' || message.content.kind !== 'interactive-list') throw new Error('expected a list');
    expect(message.content.rows.map((row) => row.title)).toEqual([
      'None',
      '1 day',
      '2 days',
      '3 days',
      '4 days',
      '5 days',
      '6 days',
      '7 days',
    ]);
    const [stored] = await db
      .select({ wamid: messages.providerMessageId, choices: messages.replyChoices })
      .from(messages)
      .where(and(eq(messages.direction, 'outbound'), eq(messages.channel, 'whatsapp')));
    expect(stored!.choices?.kind).toBe('list');
    expect(stored!.choices?.choices.slice(0, 2)).toEqual(
      message.content.rows.slice(0, 2).map((row) => ({ id: row.payload, title: row.title })),
    );

    const row = message.content.rows[3]!;
    const answered = await whatsAppReply({
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: row.payload, title: row.title } },
      context: { id: stored!.wamid },
    });
    expect(answered.outcome).toMatchObject({ kind: 'survey', outcome: 'answered' });
    const [response] = await db.select({ answers: surveyResponses.answers }).from(surveyResponses);
    expect(response!.answers).toEqual({ 'ipaq-vigorous-days': '3' });
    // The minutes question follows now that the days are known (and the patient's reply kept the window open).
    const [second] = await runSurveyJobs();
    expect(second).toMatchObject({ outcome: 'sent', channel: 'whatsapp' });
    const next = sent.at(-1)!;
    expect(next.channel === 'whatsapp' && next.content.kind === 'text' ? next.content.body : '').toContain('minutes');
    // A lifestyle answer carries no persona information: no posterior is written.
    expect(await db.select({ answers: patientPersonaPosteriors.answers }).from(patientPersonaPosteriors)).toEqual([]);
  });

  it('continues a browser response: its last question, of three answers, goes as reply buttons, and a tap completes it', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    await whatsAppReply({ type: 'text', text: { body: 'hi' } });
    // Four answers given in the browser, in the order the engine asked them: one question is left (5 at most).
    const answers: Record<string, string> = {};
    for (let index = 0; index < 4; index += 1) {
      const question = nextMessageQuestions(adherenceBarriersSurvey, answers)[0]!;
      // The second answer of each; the fifth question is then one of three answers (version 3: managing
      // without medicines).
      answers[question.id] = question.kind === 'choice' ? question.options[1]!.value : '0';
    }
    const fifth = nextMessageQuestions(adherenceBarriersSurvey, answers)[0]!;
    if (fifth.kind !== 'choice') throw new Error('expected a choice question');
    expect(fifth.options).toHaveLength(3);
    const offered = await offerSurveyByMessage({
      database: db,
      actor: clinician,
      input: { patientId, surveyKey: 'adherence-barriers' },
      now: tick(),
    });
    await db
      .update(surveyResponses)
      .set({ answers, askedOrder: Object.keys(answers) })
      .where(eq(surveyResponses.id, offered.responseId));
    const [first] = await runSurveyJobs();
    expect(first).toMatchObject({ outcome: 'sent', channel: 'whatsapp', questions: 1, form: 'interactive-buttons' });
    const message = sent.at(-1)!;
    if (message.channel !== 'whatsapp' || message.content.kind !== 'interactive-buttons') throw new Error('expected buttons');
    expect(message.content.buttons.map((button) => button.title)).toEqual(fifth.options.map((option) => option.label));
    const button = message.content.buttons[2]!;
    const tapped = await whatsAppReply({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: button.payload, title: button.title } },
    });
    expect(tapped.outcome).toMatchObject({ kind: 'survey', outcome: 'completed' });
    const [response] = await db
      .select({ answers: surveyResponses.answers, completedAt: surveyResponses.completedAt })
      .from(surveyResponses);
    expect(Object.keys(response!.answers)).toHaveLength(5);
    expect(response!.completedAt).not.toBeNull();
    expect(await db.select({ answers: patientPersonaPosteriors.answers }).from(patientPersonaPosteriors)).toEqual([{ answers: 5 }]);
  });

  it('answers an unreadable reply with one clarification, then keeps the next for a person', async () => {
    const db = database.database;
    await consent(['sms']);
    await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now: tick() });
    await runSurveyJobs();
    const first = await smsReply('what do you mean?');
    expect(first.outcome).toMatchObject({ kind: 'survey', outcome: 'clarification' });
    const [clarified] = await runSurveyJobs();
    expect(clarified).toMatchObject({ outcome: 'sent', channel: 'sms', questions: 3 });
    expect((sent.at(-1) as { body: string }).body).toMatch(/^Sorry, we could not read that reply\./);
    // The clarification is sent once, however often its job runs.
    expect(
      await sendSurveyMessage({
        database: db,
        adapters,
        now: tick(),
        responseId: (await db.select({ id: surveyResponses.id }).from(surveyResponses))[0]!.id,
        clarifyChunkId: (clarified as { chunkId: string }).chunkId,
      }),
    ).toMatchObject({ outcome: 'skipped' });

    // "1" answers one of three questions: still unreadable, and it is not taken as a dose either.
    const second = await smsReply('1');
    expect(second.outcome).toMatchObject({ kind: 'survey', outcome: 'held' });
    expect(await runSurveyJobs()).toEqual([]);
    expect(await db.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);
    const [chunk] = await db
      .select({ status: surveyMessageChunks.status, held: surveyMessageChunks.heldReplyId })
      .from(surveyMessageChunks);
    expect(chunk).toEqual({ status: 'held', held: second.messageId });
    const toRead = await listRepliesToRead({ database: db, actor: clinician, patientId });
    expect(toRead).toEqual([expect.objectContaining({ id: second.messageId, text: '1', reason: 'survey-unreadable' })]);
    // Held: a later "1" is not the survey's; nor is it a dose answer to a survey message (decision 063), so with no
    // dose message to answer it is kept for a person.
    const later = await smsReply('1');
    expect(later.outcome).toEqual({ kind: 'kept', reason: 'no-message-answered' });
    expect(await db.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);
  });

  it('respects consent: refuses without an opt-in to surveys, sends nothing after STOP, and not WhatsApp outside the window', async () => {
    const db = database.database;
    await expect(
      offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now: tick() }),
    ).rejects.toMatchObject({ code: 'conflict' });

    // WhatsApp only, no message from the patient in 24 hours: interactive messages may not start a conversation.
    await consent(['whatsapp']);
    await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now: tick() });
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'not-sent', reason: 'whatsapp-window-closed' })]);
    expect(sent).toEqual([]);

    // Offered while opted in, opted out (STOP) before the job ran: nothing goes.
    await consent(['sms']);
    await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now: tick() });
    await consent(['whatsapp', 'sms'], false);
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'not-sent', reason: 'no-consent' })]);
    expect(sent).toEqual([]);
  });

  it('waits for the end of the patient’s quiet hours to send the first questions', async () => {
    const db = database.database;
    await consent(['sms']);
    const late = new Date(Math.floor(clock / 86_400_000) * 86_400_000 + 22 * 3_600_000);
    clock = late.getTime();
    const offered = await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'lifestyle' }, now: late });
    // The patient's zone is UTC: 08:00 the next morning.
    const morning = new Date(late.getTime() + 10 * 3_600_000);
    expect(offered.sendsAt).toBe(morning.toISOString());
    expect(await db.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.kind, surveyMessageSendJobKind))).toEqual([{ runAt: morning }]);
    // The other tests run in the daytime.
    clock = morning.getTime() + 3_600_000;
  });

  it('lets only the patient’s clinicians and admins send a survey by message', async () => {
    const db = database.database;
    await consent(['sms']);
    await expect(
      offerSurveyByMessage({ database: db, actor: otherClinician, input: { patientId, surveyKey: 'lifestyle' }, now: tick() }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // A patient who does not exist is refused as someone else's is, even to an admin, and both refusals are audited.
    const missingPatientId = '00000000-0000-4000-8000-000000000000';
    await expect(
      offerSurveyByMessage({
        database: db,
        actor: user('sm-admin', 'admin'),
        input: { patientId: missingPatientId, surveyKey: 'lifestyle' },
        now: tick(),
      }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'patientId: there is no such patient among yours.' });
    const refusals = await db
      .select({ actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'survey.send-by-message'), eq(auditLog.outcome, 'denied')))
      .orderBy(auditLog.id);
    expect(refusals.slice(-2)).toEqual([
      { actor: otherClinician.id, details: { role: 'clinician', patientId } },
      { actor: 'sm-admin', details: { role: 'admin', patientId: missingPatientId } },
    ]);
    await expect(
      offerSurveyByMessage({
        database: db,
        actor: user('sm-patient', 'patient'),
        input: { patientId, surveyKey: 'lifestyle' },
        now: tick(),
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'unknown' }, now: tick() }),
    ).rejects.toMatchObject({ code: 'validation' });
  });

  it('shares one response with the browser and sends one open message at a time', async () => {
    const db = database.database;
    await consent(['sms']);
    const first = await offerSurveyByMessage({
      database: db,
      actor: clinician,
      input: { patientId, surveyKey: 'adherence-barriers' },
      now: tick(),
    });
    await runSurveyJobs();
    const again = await offerSurveyByMessage({
      database: db,
      actor: clinician,
      input: { patientId, surveyKey: 'adherence-barriers' },
      now: tick(),
    });
    expect(again).toMatchObject({ responseId: first.responseId, status: 'awaiting-answer' });
    // A doubled job finds the open message and sends nothing.
    expect(await sendSurveyMessage({ database: db, adapters, now: tick(), responseId: first.responseId })).toEqual({
      outcome: 'skipped',
      reason: 'awaiting-answer',
    });
    expect(sent).toHaveLength(1);

    // A day without an answer: a new offer sends the same questions again, and only the new message takes answers.
    clock += 25 * 60 * 60_000;
    expect(
      await offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now: tick() }),
    ).toMatchObject({ responseId: first.responseId, status: 'queued' });
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', questions: 3 })]);
    expect(sent.map((message) => (message as { body: string }).body)).toEqual([
      (sent[0] as { body: string }).body,
      (sent[0] as { body: string }).body,
    ]);
    const chunks = await db.select({ status: surveyMessageChunks.status }).from(surveyMessageChunks).orderBy(surveyMessageChunks.createdAt);
    expect(chunks).toEqual([{ status: 'expired' }, { status: 'awaiting' }]);
  });

  it('closes its waiting message when the patient finishes the survey in the browser: no clarification, hold or reminder follows', async () => {
    const db = database.database;
    await consent(['sms']);
    const offered = await offerBarrierSurvey();
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms' })]);
    // The patient opens the same survey in the browser instead and answers it to the end.
    const state = await finishInBrowser(0);
    expect(state.responseId).toBe(offered.responseId);
    expect(state.completedAt).not.toBeNull();
    expect(
      await db.select({ status: surveyMessageChunks.status, reason: surveyMessageChunks.statusReason }).from(surveyMessageChunks),
    ).toEqual([{ status: 'expired', reason: 'survey-completed' }]);
    // A reply to the text message now is not the survey's: no "could not read that reply", nothing held as unreadable.
    const late = await smsReply('what was this about?');
    expect(late.outcome).toMatchObject({ kind: 'kept' });
    expect(await runSurveyJobs()).toEqual([]);
    const toRead = await listRepliesToRead({ database: db, actor: clinician, patientId });
    expect(toRead.map((row) => row.reason)).not.toContain('survey-unreadable');
    // Two days on, the reminder queued with the message finds the survey finished and sends nothing.
    clock += 3 * 24 * 60 * 60_000;
    expect(await runSurveyJobs()).toEqual([{ outcome: 'skipped', reason: 'completed' }]);
    expect(sent).toHaveLength(1);
  });

  it('keeps a message closed that was being sent as the patient finished the survey in the browser', async () => {
    const db = database.database;
    await consent(['sms']);
    const offered = await offerBarrierSurvey();
    // The provider takes a moment; the patient finishes the survey in the browser meanwhile.
    const slowSms: typeof adapters = {
      ...adapters,
      sms: { ...adapters.sms, send: async (message) => (await finishInBrowser(1), adapters.sms.send(message)) },
    };
    expect(await sendSurveyMessage({ database: db, adapters: slowSms, now: tick(), responseId: offered.responseId })).toMatchObject({
      outcome: 'sent',
      channel: 'sms',
    });
    const [chunk] = await db
      .select({ status: surveyMessageChunks.status, messageId: surveyMessageChunks.messageId })
      .from(surveyMessageChunks);
    expect(chunk).toEqual({ status: 'expired', messageId: expect.any(String) });
    // "1 3 2" to it is not stored on the finished response, nor clarified.
    const [before] = await db.select({ answers: surveyResponses.answers }).from(surveyResponses);
    const late = await smsReply('1 3 2');
    expect(late.outcome).not.toMatchObject({ kind: 'survey' });
    expect(await db.select({ answers: surveyResponses.answers }).from(surveyResponses)).toEqual([before]);
    expect(await runSurveyJobs()).toEqual([{ outcome: 'skipped', reason: 'completed' }]);
    expect(sent).toHaveLength(1);
  });

  it('continues one response when two offers arrive at once, and sends its questions once', async () => {
    const db = database.database;
    await consent(['sms']);
    const now = tick();
    const offer = () =>
      offerSurveyByMessage({ database: db, actor: clinician, input: { patientId, surveyKey: 'adherence-barriers' }, now });
    const [one, two] = await Promise.all([offer(), offer()]);
    expect(two.responseId).toBe(one.responseId);
    expect(await db.select({ id: surveyResponses.id }).from(surveyResponses)).toEqual([{ id: one.responseId }]);
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', questions: 3 })]);
    expect(sent).toHaveLength(1);
  });

  it('a patient opening the survey in two tabs at once gets one response', async () => {
    const db = database.database;
    const open = () => startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now: tick() });
    const [one, two] = await Promise.all([open(), open()]);
    expect(two.responseId).toBe(one.responseId);
    expect(await db.select({ id: surveyResponses.id }).from(surveyResponses)).toEqual([{ id: one.responseId }]);
  });
});
