/**
 * The survey invitation (decision 056) through the real path: the offer, the 'survey-message-send' job's use case
 * with the real WhatsApp Cloud API adapter against the local counterpart (which knows the account's approved
 * templates and refuses others as Meta does), the quick-reply tap's webhook recorded by recordWebhookEvents, and
 * the 'inbound-message-received' job's use case.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs, messages, messageTemplateVersions, surveyMessageChunks, surveyResponses, webhookEvents } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import {
  invitationQuestionCount,
  lifestyleSurvey,
  renderSurveyInvitation,
  surveyInvitationReminderTemplate,
  surveyInvitationTemplate,
} from '@/engine/surveys';
import { recordConsent } from '@/features/consent';
import { type ChannelAdapters, createWhatsAppCloudAdapter } from '@/features/message-sending';
import { approveDemoTemplates, ensureTemplateLibrary } from '@/features/message-templates';
import { actOnInboundMessage, listRepliesToRead } from '@/features/message-replies';
import { recordWebhookEvents, whatsAppInboundEvent } from '@/features/messaging-webhooks';
import { inboundMessageJobKind } from '@/lib/messaging-job-kinds';
import { type LocalWhatsAppCloudApi, startLocalWhatsAppCloudApi } from '../../../../tests/support/local-whatsapp-cloud-api';
import { offerSurveyByMessage } from './offer-survey-by-message';
import {
  clearSurveyMessageTables,
  createRecordingAdapters,
  insertSurveyTestPatient,
  runSurveyMessageJobs,
} from './test-support/survey-message-harness';
import { testSessionUser } from '@/lib/server/session-testing';

const phone = '+34600444666';
const digits = '34600444666';
const start = new Date('2026-11-25T09:00:00Z').getTime();
const clinician = testSessionUser('si-clinician', 'clinician');

type TemplateBody = {
  type: string;
  to: string;
  template: {
    name: string;
    language: { code: string };
    components: { type: string; sub_type?: string; index?: string; parameters: Record<string, string>[] }[];
  };
};

describe.each(testDatabaseBackends())('survey invitations on $name', (backend) => {
  let database: TestDatabase;
  let api: LocalWhatsAppCloudApi;
  let adapters: ChannelAdapters;
  let patientId: string;
  let clock = start;
  let counter = 0;
  // SMS is recorded; WhatsApp goes to the local Cloud API.
  const recording = createRecordingAdapters({ prefix: 'si' });
  const tick = () => new Date((clock += 60_000));
  // What the local API received and accepted since the test began.
  let baseline = { received: 0, accepted: 0 };
  const accepted = () => api.accepted().slice(baseline.accepted);
  const received = () => api.received.slice(baseline.received);
  const resetBaseline = () => {
    baseline = { received: api.received.length, accepted: api.accepted().length };
  };

  beforeAll(async () => {
    api = await startLocalWhatsAppCloudApi({
      // The account's approved templates: the invitation and its reminder (decision 065), as submitted.
      templates: [surveyInvitationTemplate, surveyInvitationReminderTemplate].map((template) => ({
        name: template.name,
        language: template.language,
        bodyParameters: template.parameters,
        quickReplies: template.buttons.length,
      })),
    });
    adapters = {
      ...recording.adapters,
      whatsapp: createWhatsAppCloudAdapter({ apiUrl: api.url, phoneNumberId: api.phoneNumberId, accessToken: api.accessToken }),
    };
    database = await backend.create();
    patientId = await insertSurveyTestPatient(database.database, { prefix: 'si', phone, staff: [{ user: clinician }] });
  });
  afterAll(async () => {
    await database.dispose();
    await api.stop();
  });
  beforeEach(async () => {
    const db = database.database;
    await clearSurveyMessageTables(db, { also: [webhookEvents, messageTemplateVersions] });
    // The library as the server's start stores it, with the demo's approvals (the invitation is utility).
    await ensureTemplateLibrary({ database: db });
    await approveDemoTemplates({ database: db });
    resetBaseline();
    recording.reset();
    clock += 24 * 60 * 60_000 * 3;
  });

  const consent = (channels: ('whatsapp' | 'sms')[]) =>
    recordConsent({
      database: database.database,
      patientId,
      channels,
      purposes: ['surveys'],
      granted: true,
      source: 'profile',
      actorUserId: null,
      at: new Date(clock - 1000),
    });
  const offer = () =>
    offerSurveyByMessage({ database: database.database, actor: clinician, input: { patientId, surveyKey: 'lifestyle' }, now: tick() });

  function runSurveyJobs() {
    // Those due (a reminder waits two days, decision 063).
    const dueBy = clock + 60_000;
    return runSurveyMessageJobs({ database: database.database, adapters, now: tick, due: (job) => job.runAt.getTime() <= dueBy });
  }

  /** A WhatsApp webhook carrying one message; delivering the same one again is what a provider retry does. */
  async function deliver(message: Record<string, unknown>) {
    const db = database.database;
    const event = whatsAppInboundEvent({ from: digits, timestamp: String(Math.floor(clock / 1000)), ...message } as never)!;
    const recording = await recordWebhookEvents({ database: db, events: [event] });
    const inbound = recording.inbound[0];
    return {
      recording,
      outcome:
        inbound === undefined ? null : await actOnInboundMessage({ database: db, messageId: inbound.messageId, now: new Date(clock) }),
      messageId: inbound?.messageId ?? null,
    };
  }
  const tap = (payload: string, title: string, wamid: string) =>
    deliver({ id: `wamid.in.${(counter += 1)}`, type: 'button', button: { payload, text: title }, context: { from: digits, id: wamid } });

  /** Which library template and version a message row records (null for free-form messages). */
  const templateColumns = { id: messages.templateId, language: messages.templateLanguage, version: messages.templateVersion };

  /** The library's newest version of a template (the demo approval adds one on top of the first). */
  async function approvedVersion(templateId: string) {
    const versions = await database.database
      .select({ version: messageTemplateVersions.version })
      .from(messageTemplateVersions)
      .where(eq(messageTemplateVersions.templateId, templateId))
      .orderBy(desc(messageTemplateVersions.version));
    return versions[0]!.version;
  }

  async function invitationSent() {
    const db = database.database;
    const [chunk] = await db
      .select({ id: surveyMessageChunks.id, kind: surveyMessageChunks.kind, status: surveyMessageChunks.status })
      .from(surveyMessageChunks);
    const [message] = await db
      .select({ wamid: messages.providerMessageId, body: messages.body, choices: messages.replyChoices, template: templateColumns })
      .from(messages)
      .where(and(eq(messages.direction, 'outbound'), eq(messages.channel, 'whatsapp')));
    return { chunk: chunk!, message: message! };
  }

  it('outside the window sends the approved invitation template (not the questions, not SMS); "Start" sends the first questions at once', async () => {
    const db = database.database;
    await consent(['whatsapp', 'sms']);
    await offer();
    const [first] = await runSurveyJobs();
    expect(first).toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'template', questions: 0 });
    expect(recording.sent).toEqual([]);
    const { chunk, message } = await invitationSent();
    expect(chunk).toMatchObject({ kind: 'invitation', status: 'awaiting' });

    // What the local Cloud API received (and accepted against the approved template).
    expect(accepted()).toHaveLength(1);
    const body = accepted()[0]!.body as TemplateBody;
    expect(body).toMatchObject({
      type: 'template',
      to: digits,
      template: { name: 'medaptive_survey_invitation', language: { code: 'en' } },
    });
    const count = invitationQuestionCount(lifestyleSurvey, {});
    expect(body.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'survey', text: lifestyleSurvey.title },
          { type: 'text', parameter_name: 'questions', text: String(count) },
        ],
      },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: `survey:${chunk.id}:start` }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: `survey:${chunk.id}:not-now` }] },
    ]);
    expect(message.body).toContain(`at most ${count} questions`);
    // The row records the library's template and version it rendered (decision 056).
    expect(message.template).toEqual({
      id: surveyInvitationTemplate.id,
      language: 'en',
      version: await approvedVersion(surveyInvitationTemplate.id),
    });
    expect(message.choices).toEqual({
      kind: 'quick-replies',
      choices: [
        { id: `survey:${chunk.id}:start`, title: 'Start' },
        { id: `survey:${chunk.id}:not-now`, title: 'Not now' },
      ],
    });

    // The tap opens the window: the first questions go as an interactive list, as inside the window.
    const started = await tap(`survey:${chunk.id}:start`, 'Start', message.wamid!);
    expect(started.outcome).toEqual({ kind: 'survey', chunkId: chunk.id, outcome: 'started' });
    const [questions] = await runSurveyJobs();
    expect(questions).toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'interactive-list', questions: 1 });
    expect((accepted()[1]!.body as { type: string; interactive: { type: string } }).interactive.type).toBe('list');
    // The questions are free-form: no template on their row.
    const [questionsRow] = await db
      .select(templateColumns)
      .from(messages)
      .where(eq(messages.id, (questions as { messageId: string }).messageId));
    expect(questionsRow).toEqual({ id: null, language: null, version: null });
    const chunks = await db
      .select({ kind: surveyMessageChunks.kind, status: surveyMessageChunks.status, answeredBy: surveyMessageChunks.answeredReplyId })
      .from(surveyMessageChunks)
      .orderBy(surveyMessageChunks.createdAt);
    expect(chunks).toEqual([
      { kind: 'invitation', status: 'answered', answeredBy: started.messageId },
      { kind: 'questions', status: 'awaiting', answeredBy: null },
    ]);
  });

  it('a webhook delivered twice, or its job run twice, starts the survey once', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    await offer();
    await runSurveyJobs();
    const { chunk, message } = await invitationSent();
    const wamid = `wamid.in.${(counter += 1)}`;
    const event = {
      id: wamid,
      type: 'button',
      button: { payload: `survey:${chunk.id}:start`, text: 'Start' },
      context: { id: message.wamid },
    };
    const first = await deliver(event);
    expect(first.outcome).toMatchObject({ outcome: 'started' });
    const again = await deliver(event);
    expect(again.recording).toMatchObject({ duplicates: 1, inbound: [] });
    expect(await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, inboundMessageJobKind))).toHaveLength(1);
    expect(await actOnInboundMessage({ database: db, messageId: first.messageId!, now: new Date(clock) })).toMatchObject({
      kind: 'survey',
      outcome: 'already-handled',
    });
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', form: 'interactive-list' })]);
    expect(await runSurveyJobs()).toEqual([]);
    expect(accepted()).toHaveLength(2);
  });

  it('"Not now" declines: nothing more is sent, and the next offer tells the clinician', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    const offered = await offer();
    expect(offered.declinedAt).toBeNull();
    await runSurveyJobs();
    const { chunk, message } = await invitationSent();
    const declined = await tap(`survey:${chunk.id}:not-now`, 'Not now', message.wamid!);
    expect(declined.outcome).toEqual({ kind: 'survey', chunkId: chunk.id, outcome: 'declined' });
    expect(await runSurveyJobs()).toEqual([]);
    expect(accepted()).toHaveLength(1);
    const [stored] = await db
      .select({ status: surveyMessageChunks.status, reason: surveyMessageChunks.statusReason })
      .from(surveyMessageChunks);
    expect(stored).toEqual({ status: 'declined', reason: 'not-now' });
    // A later "Start" on the declined invitation changes nothing.
    expect((await tap(`survey:${chunk.id}:start`, 'Start', message.wamid!)).outcome).toMatchObject({ outcome: 'invitation-closed' });
    expect(await runSurveyJobs()).toEqual([]);

    // The clinician asks again: told of the "Not now". The taps opened the window, so the questions go themselves.
    const again = await offer();
    expect(again).toMatchObject({ status: 'queued', declinedAt: expect.any(String) });
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', form: 'interactive-list' })]);
  });

  it('an invitation without a tap expires after a day like a question message; its late tap starts nothing', async () => {
    await consent(['whatsapp']);
    await offer();
    await runSurveyJobs();
    const { chunk, message } = await invitationSent();
    clock += 25 * 60 * 60_000;
    expect(await offer()).toMatchObject({ status: 'queued' });
    const [second] = await runSurveyJobs();
    expect(second).toMatchObject({ outcome: 'sent', form: 'template' });
    const stale = await tap(`survey:${chunk.id}:start`, 'Start', message.wamid!);
    expect(stale.outcome).toEqual({ kind: 'survey', chunkId: chunk.id, outcome: 'invitation-closed' });
    expect(await runSurveyJobs()).toEqual([]);
    // Listed for the care team, who may send the survey again.
    expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toEqual([
      expect.objectContaining({ id: stale.messageId, text: 'Start' }),
    ]);
    const statuses = await database.database
      .select({ status: surveyMessageChunks.status })
      .from(surveyMessageChunks)
      .orderBy(surveyMessageChunks.createdAt);
    expect(statuses).toEqual([{ status: 'expired' }, { status: 'awaiting' }]);
  });

  it('an invitation without a tap for two days is sent once more, as the approved reminder template, and never a third time', async () => {
    await consent(['whatsapp']);
    await offer();
    await runSurveyJobs();
    const { chunk } = await invitationSent();
    // Not due before two days.
    clock += 47 * 60 * 60_000;
    expect(await runSurveyJobs()).toEqual([]);
    clock += 60 * 60_000;
    const [reminder] = await runSurveyJobs();
    // Outside the window (the patient has not written): a template, which Meta accepts anytime — the reminder's (decision 065).
    expect(reminder).toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'template' });
    expect(accepted()).toHaveLength(2);
    expect((accepted()[1]!.body as TemplateBody).template.name).toBe('medaptive_survey_invitation_reminder');
    const chunks = await database.database
      .select({
        id: surveyMessageChunks.id,
        kind: surveyMessageChunks.kind,
        status: surveyMessageChunks.status,
        reason: surveyMessageChunks.statusReason,
      })
      .from(surveyMessageChunks)
      .orderBy(surveyMessageChunks.createdAt);
    expect(chunks).toEqual([
      { id: chunk.id, kind: 'invitation', status: 'expired', reason: 'reminded' },
      { id: (reminder as { chunkId: string }).chunkId, kind: 'invitation', status: 'awaiting', reason: null },
    ]);
    // No reminder of the reminder.
    clock += 5 * 24 * 60 * 60_000;
    expect(await runSurveyJobs()).toEqual([]);
    expect(accepted()).toHaveLength(2);
  });

  /** The one automatic reminder of an unanswered invitation, two days on: its chunk and its WhatsApp message. */
  async function remindOfInvitation() {
    const db = database.database;
    await offer();
    await runSurveyJobs();
    const { chunk: first } = await invitationSent();
    clock += 48 * 60 * 60_000;
    const [reminder] = await runSurveyJobs();
    expect(reminder).toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'template', questions: 0 });
    const chunkId = (reminder as { chunkId: string }).chunkId;
    const [message] = await db
      .select({ wamid: messages.providerMessageId, body: messages.body, choices: messages.replyChoices, template: templateColumns })
      .from(messages)
      .where(and(eq(messages.direction, 'outbound'), eq(messages.channel, 'whatsapp')))
      .orderBy(desc(messages.sentAt))
      .limit(1);
    return { first, chunkId, message: message!, body: accepted().at(-1)!.body as TemplateBody };
  }

  it('the reminder goes as the reminder template, with its wording and the invitation’s buttons and payloads (decision 065)', async () => {
    await consent(['whatsapp']);
    const { first, chunkId, message, body } = await remindOfInvitation();
    expect(first.id).not.toBe(chunkId);
    const count = invitationQuestionCount(lifestyleSurvey, {});
    const expected = renderSurveyInvitation({
      template: surveyInvitationReminderTemplate,
      surveyTitle: lifestyleSurvey.title,
      questionCount: count,
      reference: chunkId,
    });
    expect(body).toMatchObject({
      type: 'template',
      to: digits,
      template: { name: 'medaptive_survey_invitation_reminder', language: { code: 'en' } },
    });
    expect(body.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'survey', text: lifestyleSurvey.title },
          { type: 'text', parameter_name: 'questions', text: String(count) },
        ],
      },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: `survey:${chunkId}:start` }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: `survey:${chunkId}:not-now` }] },
    ]);
    // What is stored as sent is the reminder's wording, with its buttons, and the reminder template's version.
    expect(message.body).toBe(`${expected.text}\n[Start] [Not now]`);
    expect(message.template).toEqual({
      id: surveyInvitationReminderTemplate.id,
      language: 'en',
      version: await approvedVersion(surveyInvitationReminderTemplate.id),
    });
    expect(message.body).toMatch(/^A reminder: your care team would still like you to answer a short survey/);
    expect(message.choices).toEqual({
      kind: 'quick-replies',
      choices: [
        { id: `survey:${chunkId}:start`, title: 'Start' },
        { id: `survey:${chunkId}:not-now`, title: 'Not now' },
      ],
    });
  });

  it('a "Start" tap on the reminder brings the questions; the first invitation’s tap no longer does', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    const { first, chunkId, message, body } = await remindOfInvitation();
    expect(body.template.name).toBe('medaptive_survey_invitation_reminder');
    const started = await tap(`survey:${chunkId}:start`, 'Start', message.wamid!);
    expect(started.outcome).toEqual({ kind: 'survey', chunkId, outcome: 'started' });
    const [questions] = await runSurveyJobs();
    expect(questions).toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'interactive-list', questions: 1 });
    const chunks = await db
      .select({ id: surveyMessageChunks.id, kind: surveyMessageChunks.kind, status: surveyMessageChunks.status })
      .from(surveyMessageChunks)
      .orderBy(surveyMessageChunks.createdAt);
    expect(chunks).toEqual([
      { id: first.id, kind: 'invitation', status: 'expired' },
      { id: chunkId, kind: 'invitation', status: 'answered' },
      { id: (questions as { chunkId: string }).chunkId, kind: 'questions', status: 'awaiting' },
    ]);
    expect((await tap(`survey:${first.id}:start`, 'Start', message.wamid!)).outcome).toMatchObject({ outcome: 'invitation-closed' });
    expect(await runSurveyJobs()).toEqual([]);
  });

  it('"Not now" on the reminder declines: nothing more is sent', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    const { chunkId, message, body } = await remindOfInvitation();
    expect(body.template.name).toBe('medaptive_survey_invitation_reminder');
    const declined = await tap(`survey:${chunkId}:not-now`, 'Not now', message.wamid!);
    expect(declined.outcome).toEqual({ kind: 'survey', chunkId, outcome: 'declined' });
    clock += 5 * 24 * 60 * 60_000;
    expect(await runSurveyJobs()).toEqual([]);
    expect(accepted()).toHaveLength(2);
    const [stored] = await db
      .select({ status: surveyMessageChunks.status, reason: surveyMessageChunks.statusReason })
      .from(surveyMessageChunks)
      .where(eq(surveyMessageChunks.id, chunkId));
    expect(stored).toEqual({ status: 'declined', reason: 'not-now' });
  });

  it('while the reminder template is not approved, the reminder goes as the invitation template, as before', async () => {
    const db = database.database;
    // The library records the reminder as submitted but not yet approved (version 2 of the demo's approvals undone).
    await db
      .delete(messageTemplateVersions)
      .where(and(eq(messageTemplateVersions.templateId, surveyInvitationReminderTemplate.id), eq(messageTemplateVersions.version, 2)));
    await db
      .update(messageTemplateVersions)
      .set({ approvalStatus: 'pending' })
      .where(eq(messageTemplateVersions.templateId, surveyInvitationReminderTemplate.id));
    await consent(['whatsapp']);
    const { chunkId, message, body } = await remindOfInvitation();
    expect(body.template.name).toBe('medaptive_survey_invitation');
    expect(message.body).toMatch(/^Your care team would like you to answer a short survey/);
    expect(message.choices).toMatchObject({
      kind: 'quick-replies',
      choices: [{ id: `survey:${chunkId}:start` }, { id: `survey:${chunkId}:not-now` }],
    });
    expect(accepted().map((request) => (request.body as TemplateBody).template.name)).toEqual([
      'medaptive_survey_invitation',
      'medaptive_survey_invitation',
    ]);
  });

  it('no reminder after "Not now"', async () => {
    await consent(['whatsapp']);
    await offer();
    await runSurveyJobs();
    const { chunk, message } = await invitationSent();
    await tap(`survey:${chunk.id}:not-now`, 'Not now', message.wamid!);
    clock += 3 * 24 * 60 * 60_000;
    expect(await runSurveyJobs()).toEqual([{ outcome: 'skipped', reason: 'not-awaiting' }]);
    expect(accepted()).toHaveLength(1);
  });

  it('inside the window the questions go as before; an unapproved invitation leaves the closed window to SMS', async () => {
    const db = database.database;
    await consent(['whatsapp']);
    await deliver({ id: `wamid.in.${(counter += 1)}`, type: 'text', text: { body: 'hello' } });
    await offer();
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'whatsapp', form: 'interactive-list' })]);
    expect((accepted()[0]!.body as { type: string }).type).toBe('interactive');
    expect((await invitationSent()).chunk.kind).toBe('questions');

    // Meta has not approved the invitation (a real deployment before review): never sent outside the window.
    await db.delete(surveyMessageChunks);
    await db.delete(surveyResponses);
    await db.delete(messages);
    await db.delete(messageTemplateVersions);
    await ensureTemplateLibrary({ database: db });
    resetBaseline();
    clock += 25 * 60 * 60_000;
    await offer();
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'not-sent', reason: 'whatsapp-template-not-approved' })]);
    await consent(['sms']);
    await offer();
    expect(await runSurveyJobs()).toEqual([expect.objectContaining({ outcome: 'sent', channel: 'sms', form: 'sms' })]);
    expect(received()).toEqual([]);
  });
});
