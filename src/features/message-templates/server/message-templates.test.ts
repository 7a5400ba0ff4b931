import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, messages, messageTemplateVersions, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { templateLibrary } from '@/engine/messaging';
import { surveyInvitationReminderTemplate, surveyInvitationTemplate } from '@/engine/surveys';
import type { Role } from '@/lib/domain/roles';
import { approveDemoTemplates } from './approve-demo-templates';
import { findTopTemplatesByPersona } from './find-top-templates-by-persona';
import { ensureTemplateLibrary } from './ensure-template-library';
import { getCurrentTemplate } from './get-current-template';
import { getMessageExamplesPage } from './get-message-examples-page';
import { listTemplateLibrary } from './list-template-library';
import { listTemplateVersions } from './list-template-versions';
import { problemWithBody } from './check-template-update';
import { updateTemplate } from './update-template';

const now = new Date(Date.UTC(2026, 10, 1, 12));
const admin = { id: 'admin-user', role: 'admin' as Role };
const clinician = { id: 'clinician-user', role: 'clinician' as Role };
const sessionUser = (user: { id: string; role: Role }) => ({
  ...user,
  email: `${user.id}@example.org`,
  name: user.id,
  phoneNumber: null,
  twoFactorEnabled: false,
});

const edit = {
  templateId: 'reminder.gain.1',
  language: 'en' as const,
  body: 'Your {{medicine}} is due at {{dose_time}}. Every dose on time helps.',
  approvalStatus: 'pending' as const,
  whatsAppCategory: 'utility' as const,
  note: 'Shorter wording',
  expectedVersion: 1,
  now,
};

describe('template bodies the engine accepts', () => {
  it('accepts every body of the engine library as it is (an admin can save it unchanged in wording)', () => {
    for (const template of templateLibrary)
      expect(problemWithBody({ templateId: template.id, language: template.language, body: template.body }), template.id).toBeNull();
  });
  it('names unknown placeholders and SMS bodies over the segment limit', () => {
    expect(problemWithBody({ templateId: 'reminder.gain.1', language: 'en', body: 'Hello {{name}}, take it.' })).toMatch(
      'Unknown placeholder {{name}}',
    );
    expect(
      problemWithBody({ templateId: 'reminder.gain.1', language: 'en', body: `Take your {{medicine}}. ${'Really. '.repeat(80)}` }),
    ).toMatch(/segments; at most 4/);
  });
});

describe.each(testDatabaseBackends())('message template library on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await database.database.insert(authUsers).values([
      { id: admin.id, name: 'A', email: 'admin-user@example.org' },
      { id: clinician.id, name: 'C', email: 'clinician-user@example.org' },
      { id: 'official-user', name: 'O', email: 'official-user@example.org' },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('stores version 1 of every engine template once, however often it runs', async () => {
    const db = database.database;
    // The reminders' arms, the survey invitation (decision 056) and its reminder (decision 065).
    expect(await ensureTemplateLibrary({ database: db })).toBe(templateLibrary.length + 2);
    expect(await ensureTemplateLibrary({ database: db })).toBe(0);
    const rows = await db.select({ id: messageTemplateVersions.id }).from(messageTemplateVersions);
    expect(rows).toHaveLength(templateLibrary.length + 2);
    expect(await getCurrentTemplate({ database: db, templateId: 'survey.invitation', language: 'en' })).toEqual({
      templateId: 'survey.invitation',
      language: 'en',
      version: 1,
      body: surveyInvitationTemplate.body,
      whatsApp: { name: 'medaptive_survey_invitation', language: 'en', category: 'utility', approval: 'not-submitted' },
    });
    expect(await getCurrentTemplate({ database: db, templateId: 'survey.invitation-reminder', language: 'en' })).toEqual({
      templateId: 'survey.invitation-reminder',
      language: 'en',
      version: 1,
      body: surveyInvitationReminderTemplate.body,
      whatsApp: { name: 'medaptive_survey_invitation_reminder', language: 'en', category: 'utility', approval: 'not-submitted' },
    });
    const stored = await getCurrentTemplate({ database: db, templateId: 'refill.loss.2', language: 'es' });
    const engine = templateLibrary.find((template) => template.id === 'refill.loss.2' && template.language === 'es')!;
    expect(stored).toEqual({
      templateId: 'refill.loss.2',
      language: 'es',
      version: 1,
      body: engine.body,
      whatsApp: { name: 'medaptive_refill_loss_2', language: 'es', category: 'utility', approval: 'not-submitted' },
    });
    expect(await getCurrentTemplate({ database: db, templateId: 'no.such.1', language: 'en' })).toBeNull();
    // The demo dataset records its utility templates as approved, the invitation and its reminder among them.
    await approveDemoTemplates({ database: db });
    expect((await getCurrentTemplate({ database: db, templateId: 'survey.invitation', language: 'en' }))?.whatsApp.approval).toBe(
      'approved',
    );
    expect((await getCurrentTemplate({ database: db, templateId: 'survey.invitation-reminder', language: 'en' }))?.whatsApp.approval).toBe(
      'approved',
    );
  });

  it('an admin edit adds version 2 (version 1 kept), audited; a stale edit, a non-admin and a bad placeholder are refused', async () => {
    const db = database.database;
    await ensureTemplateLibrary({ database: db });
    const saved = await updateTemplate({ database: db, actor: admin, ...edit });
    expect(saved).toMatchObject({ version: 2, body: edit.body, whatsApp: { approval: 'pending', category: 'utility' } });
    expect(await getCurrentTemplate({ database: db, templateId: edit.templateId, language: 'en' })).toEqual(saved);
    // A new start does not bring version 1 back as current.
    await ensureTemplateLibrary({ database: db });
    expect((await getCurrentTemplate({ database: db, templateId: edit.templateId, language: 'en' }))?.version).toBe(2);

    const versions = await listTemplateVersions({ database: db, templateId: edit.templateId, language: 'en' });
    expect(versions.map((version) => [version.version, version.editedByEmail, version.note])).toEqual([
      [2, 'admin-user@example.org', 'Shorter wording'],
      [1, null, 'The library’s first version.'],
    ]);
    const library = await listTemplateLibrary({ database: db, language: 'en' });
    // The reminders' templates in English, and the survey invitation and its reminder (English only).
    expect(library).toHaveLength(templateLibrary.length / 2 + 2);
    expect(library.find((entry) => entry.templateId === edit.templateId)).toMatchObject({ version: 2, versionCount: 2 });
    expect(library.find((entry) => entry.templateId === 'reminder.gain.2')).toMatchObject({ version: 1, versionCount: 1 });

    const audit = await db
      .select({ outcome: auditLog.outcome, actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'message-template.update'));
    expect(audit).toEqual([
      {
        outcome: 'success',
        actor: admin.id,
        details: { templateId: edit.templateId, language: 'en', fromVersion: 1, version: 2, changed: ['body', 'approvalStatus'] },
      },
    ]);

    // Someone else opened version 1 and saves after the first edit.
    await expect(updateTemplate({ database: db, actor: admin, ...edit, body: 'Take your {{medicine}} now.' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/^expectedVersion: someone saved version 2/),
    });
    await expect(
      updateTemplate({ database: db, actor: clinician, ...edit, expectedVersion: 2, body: 'Take your {{medicine}}.' }),
    ).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      updateTemplate({ database: db, actor: admin, ...edit, expectedVersion: 2, body: 'Hello {{patient_name}}, take your {{medicine}}.' }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { body: expect.stringContaining('Unknown placeholder {{patient_name}}') } });
    await expect(
      updateTemplate({ database: db, actor: admin, ...edit, expectedVersion: 2, approvalStatus: 'sent' as never }),
    ).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: { approvalStatus: expect.any(String) },
    });
    await expect(updateTemplate({ database: db, actor: null, ...edit, expectedVersion: 2 })).rejects.toMatchObject({
      code: 'unauthenticated',
    });

    const stillTwo = await db
      .select({ version: messageTemplateVersions.version })
      .from(messageTemplateVersions)
      .where(and(eq(messageTemplateVersions.templateId, edit.templateId), eq(messageTemplateVersions.language, 'en')));
    expect(stillTwo.map((row) => row.version).sort()).toEqual([1, 2]);
    const denied = await db
      .select({ actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'message-template.update'), eq(auditLog.outcome, 'denied')));
    expect(denied).toEqual([{ actor: clinician.id }]);
  });

  it('of two admins saving the same version at once, one saves and the other is told to reload', async () => {
    const db = database.database;
    await ensureTemplateLibrary({ database: db });
    const results = await Promise.allSettled([
      updateTemplate({ database: db, actor: admin, ...edit, body: 'Your {{medicine}} is due at {{dose_time}}. First.' }),
      updateTemplate({ database: db, actor: admin, ...edit, body: 'Your {{medicine}} is due at {{dose_time}}. Second.' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
    const versions = await listTemplateVersions({ database: db, templateId: edit.templateId, language: 'en' });
    expect(versions.map((version) => version.version)).toEqual([2, 1]);
  });

  it('lists the templates each persona received most in the period, small groups suppressed for those who see aggregates only', async () => {
    const db = database.database;
    const made = await db
      .insert(patients)
      .values([
        ...Array.from({ length: 12 }, (_, index) => ({
          pseudonym: `B-${index}`,
          source: 'test',
          sourceRecordId: `b${index}`,
          persona: 'busy-professional',
        })),
        ...Array.from({ length: 3 }, (_, index) => ({
          pseudonym: `F-${index}`,
          source: 'test',
          sourceRecordId: `f${index}`,
          persona: 'forgetful-older-adult',
        })),
      ])
      .returning({ id: patients.id, persona: patients.persona });
    const busy = made.filter((row) => row.persona === 'busy-professional');
    const forgetful = made.filter((row) => row.persona === 'forgetful-older-adult');
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
    let record = 0;
    const message = (patientId: string, templateId: string | null, sentAt: Date, direction: 'outbound' | 'inbound' = 'outbound') => ({
      patientId,
      channel: 'whatsapp' as const,
      direction,
      templateId,
      sentAt,
      status: 'delivered',
      source: 'test',
      sourceRecordId: `m${record++}`,
    });
    await db.insert(messages).values([
      // Every busy professional: reminder.gain.1 three times, check-in.neutral.1 once.
      ...busy.flatMap((patient) => [1, 2, 3].map((day) => message(patient.id, 'reminder.gain.1', at(day)))),
      ...busy.map((patient) => message(patient.id, 'check-in.neutral.1', at(4))),
      // Two of them: refill.neutral.1 four times each (more messages than check-in, but only two patients).
      ...busy.slice(0, 2).flatMap((patient) => [5, 6, 7, 8].map((day) => message(patient.id, 'refill.neutral.1', at(day)))),
      // Not counted: a reply, a message without a template, one before the period.
      message(busy[0]!.id, 'reminder.loss.1', at(2), 'inbound'),
      message(busy[0]!.id, null, at(2)),
      message(busy[0]!.id, 'education.social.1', at(800)),
      ...forgetful.map((patient) => message(patient.id, 'reminder.neutral.1', at(1))),
    ]);

    const full = await findTopTemplatesByPersona({ database: db, actor: admin, now });
    if (full.status !== 'ok') throw new Error('expected figures');
    expect(full.suppressed).toBe(false);
    expect(full.period.asOf).toBe('2026-11-01');
    expect(full).toMatchObject({ patients: 15, messages: 12 * 4 + 8 + 3 });
    expect(full.personas.map((group) => [group.persona, group.patients, group.messages])).toEqual([
      ['busy-professional', 12, 56],
      ['forgetful-older-adult', 3, 3],
    ]);
    expect(full.personas[0]!.top).toEqual([
      { templateId: 'reminder.gain.1', messages: 36, patients: 12, share: 36 / 56 },
      { templateId: 'check-in.neutral.1', messages: 12, patients: 12, share: 12 / 56 },
      { templateId: 'refill.neutral.1', messages: 8, patients: 2, share: 8 / 56 },
    ]);

    const suppressed = await findTopTemplatesByPersona({ database: db, actor: { id: 'official-user', role: 'government-official' }, now });
    if (suppressed.status !== 'ok') throw new Error('expected figures');
    expect(suppressed.suppressed).toBe(true);
    // The three forgetful patients are a small group, and the total would reveal them.
    expect(suppressed).toMatchObject({ patients: null, messages: null });
    expect(suppressed.personas[1]).toEqual({
      persona: 'forgetful-older-adult',
      patients: null,
      messages: null,
      suppressed: true,
      top: [],
      hiddenTemplates: 0,
    });
    expect(suppressed.personas[0]!.top.map((row) => row.templateId)).toEqual(['reminder.gain.1', 'check-in.neutral.1']);
    expect(suppressed.personas[0]!.hiddenTemplates).toBe(1);

    // A clinician without an organisation sees nobody.
    const none = await findTopTemplatesByPersona({ database: db, actor: clinician, now });
    expect(none).toMatchObject({ status: 'ok', patients: 0, personas: [] });
  });

  it('an admin records Meta’s approval of the survey invitation; its body keeps to its own placeholders (decision 056)', async () => {
    const db = database.database;
    await ensureTemplateLibrary({ database: db });
    const invitation = {
      templateId: 'survey.invitation',
      language: 'en' as const,
      body: surveyInvitationTemplate.body,
      approvalStatus: 'approved' as const,
      whatsAppCategory: 'utility' as const,
      note: 'Approved by Meta',
      expectedVersion: 1,
      now,
    };
    await expect(
      updateTemplate({ database: db, actor: admin, ...invitation, body: 'Your {{medicine}} survey, please.' }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { body: expect.stringContaining('{{medicine}}') } });
    await expect(updateTemplate({ database: db, actor: admin, ...invitation, language: 'es' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const saved = await updateTemplate({ database: db, actor: admin, ...invitation });
    expect(saved).toMatchObject({ version: 2, whatsApp: { name: 'medaptive_survey_invitation', approval: 'approved' } });
    expect((await getCurrentTemplate({ database: db, templateId: 'survey.invitation', language: 'en' }))?.whatsApp.approval).toBe(
      'approved',
    );

    const page = await getMessageExamplesPage({
      database: db,
      actor: sessionUser(admin),
      language: 'en',
      editTemplateId: 'survey.invitation',
      now,
    });
    expect(page.surveyInvitations[0]).toMatchObject({
      templateId: 'survey.invitation',
      framing: 'invitation',
      version: 2,
      preview: { whatsApp: { buttons: ['Start', 'Not now'] }, problem: null },
    });
    expect(page.surveyInvitations[0]?.preview.whatsApp?.text).toContain('"Lifestyle": at most 5 questions');
    expect(page.editing?.card.templateId).toBe('survey.invitation');
    expect(page.cards.some((card) => card.templateId === 'survey.invitation')).toBe(false);
    expect((await getMessageExamplesPage({ database: db, actor: sessionUser(admin), language: 'es', now })).surveyInvitations).toEqual([]);
  });

  it('the invitation’s reminder has a card of its own, is edited with the same body checks, and its approval is recorded (decision 065)', async () => {
    const db = database.database;
    await ensureTemplateLibrary({ database: db });
    const page = await getMessageExamplesPage({ database: db, actor: sessionUser(admin), language: 'en', now });
    expect(page.surveyInvitations.map((card) => card.templateId)).toEqual(['survey.invitation', 'survey.invitation-reminder']);
    expect(page.surveyInvitations[1]).toMatchObject({
      category: 'survey',
      framing: 'invitation-reminder',
      version: 1,
      whatsApp: { name: 'medaptive_survey_invitation_reminder', approval: 'not-submitted' },
      preview: { whatsApp: { buttons: ['Start', 'Not now'] }, sms: null, problem: null },
    });
    expect(page.surveyInvitations[1]?.preview.whatsApp?.text).toMatch(/^A reminder: .*"Lifestyle": at most 5 questions/);

    const reminder = {
      templateId: 'survey.invitation-reminder',
      language: 'en' as const,
      body: surveyInvitationReminderTemplate.body,
      approvalStatus: 'approved' as const,
      whatsAppCategory: 'utility' as const,
      note: 'Approved by Meta',
      expectedVersion: 1,
      now,
    };
    expect(problemWithBody({ templateId: reminder.templateId, language: 'en', body: reminder.body })).toBeNull();
    await expect(
      updateTemplate({ database: db, actor: admin, ...reminder, body: 'A reminder about your {{medicine}}, please.' }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { body: expect.stringContaining('{{medicine}}') } });
    await expect(updateTemplate({ database: db, actor: admin, ...reminder, body: '{{survey}} is still waiting' })).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: { body: expect.stringContaining('starts with a placeholder') },
    });
    await expect(updateTemplate({ database: db, actor: admin, ...reminder, language: 'es' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(updateTemplate({ database: db, actor: clinician, ...reminder })).rejects.toMatchObject({ code: 'forbidden' });
    const body = 'Still waiting for you: "{{survey}}", at most {{questions}} questions. Tap Start to begin, or Not now to skip it.';
    const saved = await updateTemplate({ database: db, actor: admin, ...reminder, body });
    expect(saved).toMatchObject({
      templateId: 'survey.invitation-reminder',
      version: 2,
      body,
      whatsApp: { name: 'medaptive_survey_invitation_reminder', approval: 'approved' },
    });
    // The invitation itself is untouched.
    expect((await getCurrentTemplate({ database: db, templateId: 'survey.invitation', language: 'en' }))?.version).toBe(1);

    const editing = await getMessageExamplesPage({
      database: db,
      actor: sessionUser(admin),
      language: 'en',
      editTemplateId: 'survey.invitation-reminder',
      now,
    });
    expect(editing.editing?.card).toMatchObject({ templateId: 'survey.invitation-reminder', version: 2 });
    expect(editing.editing?.versions.map((version) => version.version)).toEqual([2, 1]);
    expect(editing.surveyInvitations[1]?.preview.whatsApp?.text).toBe(
      'Still waiting for you: "Lifestyle", at most 5 questions. Tap Start to begin, or Not now to skip it.',
    );
  });

  it('the page renders each template as WhatsApp and SMS from the example record; only admins get the editor', async () => {
    const db = database.database;
    await ensureTemplateLibrary({ database: db });
    const page = await getMessageExamplesPage({
      database: db,
      actor: sessionUser(admin),
      language: 'es',
      editTemplateId: 'reminder.gain.1',
      now,
    });
    expect(page.cards).toHaveLength(templateLibrary.length / 2);
    const card = page.cards.find((entry) => entry.templateId === 'reminder.neutral.1')!;
    expect(card.preview.whatsApp?.buttons).toEqual(['Tomada ✓', 'Aún no', 'Omitir']);
    expect(card.preview.whatsApp?.text).toContain('Metformin 500 mg');
    expect(card.preview.sms?.text).toContain('1 = tomada');
    expect(page.editing?.versions.map((version) => version.version)).toEqual([1]);
    const clinicianPage = await getMessageExamplesPage({
      database: db,
      actor: sessionUser(clinician),
      language: 'en',
      editTemplateId: 'reminder.gain.1',
      now,
    });
    expect(clinicianPage).toMatchObject({ canEdit: false, editing: null });
  });
});
