import { and, eq, isNotNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  authUsers,
  dispensings,
  organisationMemberships,
  organisations,
  patientPersonaPosteriors,
  patients,
  surveyDefinitions,
  surveyResponses,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { personas } from '@/engine/simulation/personas';
import {
  adherenceBarriersSurvey,
  adherenceBarriersSurveyVersion1,
  adherenceBarriersSurveyVersion2,
  adherenceBarriersSurveyVersion3,
  builtInSurveyVersions,
  lifestyleSurvey,
  posteriorFromAnswers,
  responseInformation,
} from '@/engine/surveys';
import { answerSurveyQuestion } from './answer-survey-question';
import { getLifestyleSurveysPage } from './get-lifestyle-surveys-page';
import { saveSurveyDefinition } from './save-survey-definition';
import { seedSurveyResponses } from './seed-survey-responses';
import { startSurveyResponse } from './start-survey-response';
import { ensureBuiltInSurveys, storeSurveyAnswers, type SurveyState } from './survey-store';

const patientUser = { id: 'patient-user', role: 'patient' as const };
const otherPatientUser = { id: 'other-patient-user', role: 'patient' as const };
const clinician = { id: 'clinician-user', role: 'clinician' as const };
const official = { id: 'official-user', role: 'government-official' as const };
const admin = { id: 'admin-user', role: 'admin' as const };
const now = new Date('2026-03-01T10:00:00Z');
const ownId = '00000000-0000-4000-8000-000000000001';

/** The answers a patient gives to the lifestyle survey, question by question (minutes only after days > 0). */
const lifestyleAnswers: Record<string, string | number> = {
  'ipaq-vigorous-days': '0',
  'ipaq-moderate-days': '2',
  'ipaq-moderate-minutes': 40,
  'ipaq-walking-days': '5',
  'ipaq-walking-minutes': 30,
  'ipaq-sitting-minutes': 300,
  'audit-c-frequency': '2-3-week',
  'audit-c-quantity': '1-2',
  'audit-c-binge': 'never',
  'sleep-hours': '7-8',
  'sleep-quality': 'fairly-good',
  smoking: 'never',
  'diet-fruit-vegetables': '2-4',
  'diet-sugary-drinks': 'none',
  stress: 'sometimes',
};

/** Answers every question the survey asks with its first answer (the barrier items' "Often") until it is done. */
async function answerFirstOptionsUntilDone(database: TestDatabase['database'], first: SurveyState) {
  let state = first;
  const askedIds: string[] = [];
  while (state.question !== null) {
    askedIds.push(state.question.id);
    const answer = state.question.kind === 'choice' ? state.question.options[0]!.value : '0';
    state = await answerSurveyQuestion({
      database,
      actor: patientUser,
      input: { responseId: state.responseId, questionId: state.question.id, answer },
      now,
    });
  }
  return { state, askedIds };
}

describe.each(testDatabaseBackends())('surveys on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db.insert(authUsers).values(
      [patientUser, otherPatientUser, clinician, official, admin].map((user) => ({
        id: user.id,
        name: user.id,
        email: `${user.id}@example.org`,
      })),
    );
    await db.insert(organisations).values([
      { id: 'org-1', name: 'Clinic one' },
      { id: 'org-2', name: 'Clinic two' },
    ]);
    await db.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-1' });
    await db.insert(patients).values([
      {
        id: ownId,
        pseudonym: 'OWN-1',
        source: 'test',
        sourceRecordId: 'own',
        userId: patientUser.id,
        organisationId: 'org-1',
        sex: 'female',
      },
      { pseudonym: 'OTHER-2', source: 'test', sourceRecordId: 'other', userId: otherPatientUser.id, organisationId: 'org-2' },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('a patient answers the lifestyle survey one question at a time, resumes where they stopped, and sees the scores', async () => {
    const db = database.database;
    let state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now });
    expect(state.version).toBe(1);
    expect(state.question?.id).toBe('ipaq-vigorous-days');
    // The browser never receives the likelihoods.
    expect(JSON.stringify(state.question)).not.toContain('likelihoods');

    state = await answerSurveyQuestion({
      database: db,
      actor: patientUser,
      input: { responseId: state.responseId, questionId: 'ipaq-vigorous-days', answer: '0' },
      now,
    });
    state = await answerSurveyQuestion({
      database: db,
      actor: patientUser,
      input: { responseId: state.responseId, questionId: 'ipaq-moderate-days', answer: '2' },
      now,
    });
    expect(state.question?.id).toBe('ipaq-moderate-minutes');
    expect(state.progress.answered).toBe(2);

    // Leaving and coming back resumes the same response at the same question.
    const resumed = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now });
    expect(resumed.responseId).toBe(state.responseId);
    expect(resumed.question?.id).toBe('ipaq-moderate-minutes');

    await expect(
      answerSurveyQuestion({
        database: db,
        actor: patientUser,
        input: { responseId: state.responseId, questionId: 'ipaq-moderate-minutes', answer: 2000 },
        now,
      }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { answer: 'a whole number from 0 to 960' } });
    await expect(
      answerSurveyQuestion({
        database: db,
        actor: patientUser,
        input: { responseId: state.responseId, questionId: 'smoking', answer: 'never' },
        now,
      }),
    ).rejects.toMatchObject({ code: 'conflict', fieldErrors: { questionId: 'not the current question' } });

    while (state.question !== null) {
      const answer = lifestyleAnswers[state.question.id];
      if (answer === undefined) throw new Error(`no answer for ${state.question.id}`);
      state = await answerSurveyQuestion({
        database: db,
        actor: patientUser,
        input: { responseId: state.responseId, questionId: state.question.id, answer },
        now,
      });
    }
    expect(state.completedAt).toBe(now.toISOString());
    expect(state.progress).toEqual({ answered: 15, total: 15 });
    // 4.0 × 40 × 2 + 3.3 × 30 × 5 = 320 + 495 = 815 MET-min/week over 7 active days: moderate. AUDIT-C 3 + 0 + 0 = 3, woman: positive.
    expect(state.result?.ipaq).toMatchObject({ valid: true, category: 'moderate', metMinutes: { total: 815 } });
    expect(state.result?.auditC).toEqual({ score: 3, cutOff: 3, positive: true });
    const [stored] = await db.select({ summary: surveyResponses.summary, askedOrder: surveyResponses.askedOrder }).from(surveyResponses);
    expect(stored?.summary).toMatchObject({ ipaq: 'moderate', 'audit-c': 'positive', smoking: 'never' });
    expect(stored?.askedOrder).toHaveLength(15);

    // Opening it again shows the result; taking it again starts a new response.
    expect((await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now })).responseId).toBe(
      state.responseId,
    );
    const again = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle', restart: true }, now });
    expect(again.responseId).not.toBe(state.responseId);
    expect(again.question?.id).toBe('ipaq-vigorous-days');
  });

  it('asks the barrier survey adaptively, at most 5 questions, and stores the persona posterior', async () => {
    const db = database.database;
    let state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now });
    expect(state.progress.total).toBe(5);
    expect(state.version).toBe(4);
    const answered = await answerFirstOptionsUntilDone(db, state);
    state = answered.state;
    const asked = answered.askedIds.length;
    expect(asked).toBeLessThanOrEqual(5);
    expect(state.result?.posterior.map((entry) => entry.persona)).toEqual([...personas]);
    const [row] = await db
      .select({
        posterior: surveyResponses.posterior,
        summary: surveyResponses.summary,
        answers: surveyResponses.answers,
        askedOrder: surveyResponses.askedOrder,
        informationBits: surveyResponses.informationBits,
      })
      .from(surveyResponses);
    expect(Object.values(row!.posterior!).reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 10);
    expect(row?.summary?.persona).toBe(state.result?.topPersona.persona);
    // Each answer's information figure is stored with the answers, for survey-evolution to sum (decision 047 addendum).
    expect(Object.keys(row!.informationBits!).sort()).toEqual([...row!.askedOrder].sort());
    expect(row!.informationBits).toEqual(responseInformation(adherenceBarriersSurvey, row!));
    // The patient's latest posterior is kept for the message policy.
    const [stored] = await db
      .select({ posterior: patientPersonaPosteriors.posterior, answers: patientPersonaPosteriors.answers })
      .from(patientPersonaPosteriors)
      .where(eq(patientPersonaPosteriors.patientId, ownId));
    expect(stored).toEqual({ posterior: row!.posterior, answers: asked });
  });

  it('takes the age group, preferred channel and supply from the patient’s record and does not ask them (decision 068)', async () => {
    const db = database.database;
    await db.update(patients).set({ ageBand: '75+', preferredChannel: 'sms' }).where(eq(patients.id, ownId));
    // The latest fill says how much the patient gets at a time: three months, though the first was a month.
    await db.insert(dispensings).values([
      { patientId: ownId, dispensedOn: '2026-01-05', daysSupply: 30, source: 'test', sourceRecordId: 'fill-1' },
      { patientId: ownId, dispensedOn: '2026-02-04', daysSupply: 90, source: 'test', sourceRecordId: 'fill-2' },
    ]);
    let state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now });
    // Nothing asked yet: the record's answers are not counted as answered questions.
    expect(state.progress).toEqual({ answered: 0, total: 5 });
    const answered = await answerFirstOptionsUntilDone(db, state);
    state = answered.state;
    const { askedIds } = answered;
    expect(askedIds).not.toContain('age-band');
    expect(askedIds).not.toContain('contact-channel');
    expect(askedIds).not.toContain('supply-length');
    expect(askedIds.length).toBeGreaterThan(0);
    expect(askedIds.length).toBeLessThanOrEqual(5);
    expect(state.progress).toEqual({ answered: askedIds.length, total: askedIds.length });
    // The result shows the record's answers as such.
    expect(state.result!.answers.filter((answer) => answer.fromRecord === true).map((answer) => answer.questionId)).toEqual([
      'age-band',
      'supply-length',
      'contact-channel',
    ]);
    const [row] = await db
      .select({ answers: surveyResponses.answers, askedOrder: surveyResponses.askedOrder, posterior: surveyResponses.posterior })
      .from(surveyResponses);
    expect(row!.answers).toMatchObject({ 'age-band': '75-plus', 'contact-channel': 'sms', 'supply-length': 'three-months' });
    expect(row!.askedOrder).toEqual(askedIds);
    // The posterior counts the record's answers as well as the patient's.
    const withRecord = posteriorFromAnswers(adherenceBarriersSurvey, row!.answers);
    expect(personas.map((persona) => row!.posterior![persona])).toEqual(withRecord);
    const [stored] = await db
      .select({ answers: patientPersonaPosteriors.answers })
      .from(patientPersonaPosteriors)
      .where(eq(patientPersonaPosteriors.patientId, ownId));
    expect(stored).toEqual({ answers: askedIds.length + 3 });
  });

  it('counts a record question the patient was asked (their record lacked it) as asked: the fifth answer ends the survey', async () => {
    const db = database.database;
    // The patient's record holds nothing the survey could take, so every question is asked, the channel included.
    const state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now });
    expect(state.progress).toEqual({ answered: 0, total: 5 });
    const question = (id: string) => adherenceBarriersSurvey.questions.find((candidate) => candidate.id === id)!;
    // Weak answers, so the survey is not confident before the limit: the fifth, the channel, is the limit.
    const sequence: [string, string][] = [
      ['message-framing', 'neutral'],
      ['reply-habit', 'sometimes'],
      ['life-upsets', '2-3'],
      ['collect-delay', '1-3-days'],
      ['contact-channel', 'whatsapp'],
    ];
    for (const [id] of sequence) expect(question(id).kind).toBe('choice');
    const answers: Record<string, string> = {};
    const askedOrder: string[] = [];
    let completedAt: Date | null = null;
    for (const [id, value] of sequence) {
      const saved = await db.transaction((transaction) =>
        storeSurveyAnswers(transaction, {
          response: {
            id: state.responseId,
            patientId: ownId,
            answers: { ...answers },
            askedOrder: [...askedOrder],
            definition: adherenceBarriersSurvey,
          },
          added: [[id, value]],
          sex: 'female',
          now,
        }),
      );
      expect(saved.stored).toBe(true);
      answers[id] = value;
      askedOrder.push(id);
      completedAt = saved.completedAt;
      if (askedOrder.length < 5) expect(completedAt).toBeNull();
    }
    expect(Math.max(...posteriorFromAnswers(adherenceBarriersSurvey, answers))).toBeLessThan(0.85);
    expect(completedAt).toEqual(now);
  });

  it('keeps the persona posterior for barrier answers only: a lifestyle answer leaves it alone', async () => {
    const db = database.database;
    const lifestyle = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now });
    await answerSurveyQuestion({
      database: db,
      actor: patientUser,
      input: { responseId: lifestyle.responseId, questionId: lifestyle.question!.id, answer: '1' },
      now,
    });
    expect(await db.select({ id: patientPersonaPosteriors.patientId }).from(patientPersonaPosteriors)).toEqual([]);
    const barriers = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now });
    await answerSurveyQuestion({
      database: db,
      actor: patientUser,
      input: {
        responseId: barriers.responseId,
        questionId: barriers.question!.id,
        answer: barriers.question!.kind === 'choice' ? barriers.question!.options[0]!.value : '0',
      },
      now,
    });
    const [stored] = await db
      .select({ answers: patientPersonaPosteriors.answers, responseId: patientPersonaPosteriors.surveyResponseId })
      .from(patientPersonaPosteriors);
    expect(stored).toEqual({ answers: 1, responseId: barriers.responseId });
  });

  it("refuses another patient's response as unknown and audits the attempt; refuses non-patients and unlinked accounts", async () => {
    const db = database.database;
    const state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now });
    await expect(
      answerSurveyQuestion({
        database: db,
        actor: otherPatientUser,
        input: { responseId: state.responseId, questionId: 'ipaq-vigorous-days', answer: '1' },
        now,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const audits = await db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'survey.answer'), eq(auditLog.actorUserId, otherPatientUser.id)));
    expect(audits).toEqual([{ outcome: 'denied' }]);
    await expect(startSurveyResponse({ database: db, actor: clinician, input: { surveyKey: 'lifestyle' }, now })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'diet' }, now })).rejects.toMatchObject({
      code: 'validation',
    });
  });

  it('an admin edit saves a new, audited version; earlier versions and their responses are kept; others are refused', async () => {
    const db = database.database;
    const started = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now });
    const edited = { ...lifestyleSurvey, title: 'Lifestyle (revised)' };
    const input = { surveyKey: 'lifestyle', definitionJson: JSON.stringify(edited), changeNote: 'Clearer title' };
    await expect(saveSurveyDefinition({ database: db, actor: clinician, input, now })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await saveSurveyDefinition({ database: db, actor: admin, input, now })).toEqual({ surveyKey: 'lifestyle', version: 2 });
    const versions = await db
      .select({ version: surveyDefinitions.version, changeNote: surveyDefinitions.changeNote })
      .from(surveyDefinitions)
      .where(eq(surveyDefinitions.surveyKey, 'lifestyle'))
      .orderBy(surveyDefinitions.version);
    expect(versions).toEqual([
      { version: 1, changeNote: null },
      { version: 2, changeNote: 'Clearer title' },
    ]);
    const audits = await db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(eq(auditLog.action, 'survey-definition.save'))
      .orderBy(auditLog.outcome);
    expect(audits).toEqual([{ outcome: 'denied' }, { outcome: 'success' }]);
    // The response begun on version 1 continues on version 1.
    expect((await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'lifestyle' }, now })).version).toBe(1);
    expect(started.version).toBe(1);

    const broken = structuredClone(edited) as unknown as {
      questions: { id: string; options?: { likelihoods: Record<string, number> }[] }[];
    };
    broken.questions.find((question) => question.id === 'smoking')!.options![0]!.likelihoods['busy-professional'] = 0.9;
    await expect(
      saveSurveyDefinition({ database: db, actor: admin, input: { ...input, definitionJson: JSON.stringify(broken) }, now }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { 'questions.smoking': expect.stringContaining('busy-professional') } });
    await expect(
      saveSurveyDefinition({ database: db, actor: admin, input: { ...input, definitionJson: '{"key":"lifestyle"' }, now }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { definitionJson: 'not valid JSON' } });
    // A question answered from the record must offer every answer the record can give (decision 068).
    const fromRecord = structuredClone(edited) as unknown as { questions: { id: string; recordField?: string }[] };
    fromRecord.questions.find((question) => question.id === 'smoking')!.recordField = 'preferred-channel';
    await expect(
      saveSurveyDefinition({ database: db, actor: admin, input: { ...input, definitionJson: JSON.stringify(fromRecord) }, now }),
    ).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: { 'questions.smoking': "answered from the record's preferred-channel, it needs the answers sms, whatsapp, app" },
    });
  });

  it('brings built-in versions 2, 3 and 4 of the barrier survey to a database that holds version 1, once, keeping version 1 and its responses', async () => {
    const db = database.database;
    // A database seeded before version 2 existed: version 1 of each survey, as ensureBuiltInSurveys used to write it.
    await db.insert(surveyDefinitions).values([
      { surveyKey: 'lifestyle', version: 1, definition: lifestyleSurvey },
      { surveyKey: 'adherence-barriers', version: 1, definition: adherenceBarriersSurveyVersion1 },
    ]);
    const [versionOne] = await db
      .select({ id: surveyDefinitions.id })
      .from(surveyDefinitions)
      .where(eq(surveyDefinitions.surveyKey, 'adherence-barriers'));
    await db
      .insert(surveyResponses)
      .values({ patientId: ownId, definitionId: versionOne!.id, surveyKey: 'adherence-barriers', answers: { cost: 'often' } });

    await ensureBuiltInSurveys(db);
    await ensureBuiltInSurveys(db);
    const versions = await db
      .select({
        version: surveyDefinitions.version,
        changeNote: surveyDefinitions.changeNote,
        createdBy: surveyDefinitions.createdBy,
        definition: surveyDefinitions.definition,
      })
      .from(surveyDefinitions)
      .where(eq(surveyDefinitions.surveyKey, 'adherence-barriers'))
      .orderBy(surveyDefinitions.version);
    expect(versions.map(({ version, changeNote, createdBy }) => ({ version, changeNote, createdBy }))).toEqual([
      { version: 1, changeNote: null, createdBy: null },
      { version: 2, changeNote: builtInSurveyVersions.find((entry) => entry.version === 2)!.changeNote, createdBy: null },
      { version: 3, changeNote: builtInSurveyVersions.find((entry) => entry.version === 3)!.changeNote, createdBy: null },
      { version: 4, changeNote: builtInSurveyVersions.find((entry) => entry.version === 4)!.changeNote, createdBy: null },
    ]);
    expect(versions[0]!.definition).toEqual(adherenceBarriersSurveyVersion1);
    expect(versions[1]!.definition).toEqual(adherenceBarriersSurveyVersion2);
    expect(versions[2]!.definition).toEqual(adherenceBarriersSurveyVersion3);
    expect(versions[3]!.definition).toEqual(adherenceBarriersSurvey);
    // Lifestyle has no later built-in version.
    expect(
      await db.select({ version: surveyDefinitions.version }).from(surveyDefinitions).where(eq(surveyDefinitions.surveyKey, 'lifestyle')),
    ).toEqual([{ version: 1 }]);
    // The old response keeps pointing at version 1; a new one starts on version 3.
    expect(await db.select({ definitionId: surveyResponses.definitionId }).from(surveyResponses)).toEqual([
      { definitionId: versionOne!.id },
    ]);
  });

  it('does not add the built-in version 2 over an admin’s own version 2: the admin’s edit stays current', async () => {
    const db = database.database;
    await db.insert(surveyDefinitions).values([
      { surveyKey: 'lifestyle', version: 1, definition: lifestyleSurvey },
      { surveyKey: 'adherence-barriers', version: 1, definition: adherenceBarriersSurveyVersion1 },
    ]);
    // The admin saved version 2 from version 1 before this release (found by the store's own check on first use).
    const edited = { ...adherenceBarriersSurveyVersion1, title: 'What makes your medicines harder' };
    const input = { surveyKey: 'adherence-barriers', definitionJson: JSON.stringify(edited), changeNote: 'Shorter title' };
    await db
      .insert(surveyDefinitions)
      .values({ surveyKey: 'adherence-barriers', version: 2, definition: edited, changeNote: input.changeNote, createdBy: admin.id });

    await ensureBuiltInSurveys(db);
    const state = await startSurveyResponse({ database: db, actor: patientUser, input: { surveyKey: 'adherence-barriers' }, now });
    expect(state.version).toBe(2);
    expect(state.title).toBe('What makes your medicines harder');
    const versions = await db
      .select({ version: surveyDefinitions.version, createdBy: surveyDefinitions.createdBy })
      .from(surveyDefinitions)
      .where(eq(surveyDefinitions.surveyKey, 'adherence-barriers'))
      .orderBy(surveyDefinitions.version);
    expect(versions).toEqual([
      { version: 1, createdBy: null },
      { version: 2, createdBy: admin.id },
    ]);
    // The admin can still save further versions, and the built-in one does not come back after.
    expect(await saveSurveyDefinition({ database: db, actor: admin, input: { ...input, changeNote: 'Again' }, now })).toEqual({
      surveyKey: 'adherence-barriers',
      version: 3,
    });
    await ensureBuiltInSurveys(db);
    expect(
      await db
        .select({ version: surveyDefinitions.version })
        .from(surveyDefinitions)
        .where(eq(surveyDefinitions.surveyKey, 'adherence-barriers')),
    ).toHaveLength(3);
  });

  it('brings built-in versions 3 and 4 on top of the built-in version 2 (decisions 062, 068), but not over an admin’s own version 3', async () => {
    const db = database.database;
    const builtIn = (version: number) =>
      builtInSurveyVersions.find((entry) => entry.definition.key === 'adherence-barriers' && entry.version === version)!;
    const upToVersionTwo = [
      { surveyKey: 'lifestyle', version: 1, definition: lifestyleSurvey },
      { surveyKey: 'adherence-barriers', version: 1, definition: adherenceBarriersSurveyVersion1 },
      { surveyKey: 'adherence-barriers', version: 2, definition: adherenceBarriersSurveyVersion2, changeNote: builtIn(2).changeNote },
    ];
    // A database brought up to version 2 by the previous release.
    await db.insert(surveyDefinitions).values(upToVersionTwo);
    await ensureBuiltInSurveys(db);
    const versions = () =>
      db
        .select({ version: surveyDefinitions.version, changeNote: surveyDefinitions.changeNote, createdBy: surveyDefinitions.createdBy })
        .from(surveyDefinitions)
        .where(eq(surveyDefinitions.surveyKey, 'adherence-barriers'))
        .orderBy(surveyDefinitions.version);
    expect((await versions()).slice(-2)).toEqual([
      { version: 3, changeNote: builtIn(3).changeNote, createdBy: null },
      { version: 4, changeNote: builtIn(4).changeNote, createdBy: null },
    ]);

    // Where an admin saved their own version 3 on top of the built-in version 2, theirs stays current.
    await db.delete(surveyDefinitions);
    await db.insert(surveyDefinitions).values(upToVersionTwo);
    await db.insert(surveyDefinitions).values({
      surveyKey: 'adherence-barriers',
      version: 3,
      definition: { ...adherenceBarriersSurveyVersion2, title: 'What makes your medicines harder' },
      changeNote: 'Shorter title',
      createdBy: admin.id,
    });
    await ensureBuiltInSurveys(db);
    expect((await versions()).map((row) => [row.version, row.createdBy])).toEqual([
      [1, null],
      [2, null],
      [3, admin.id],
    ]);
  });

  it('an admin can save every built-in definition as it stands (it passes the editor’s checks)', async () => {
    const db = database.database;
    for (const entry of builtInSurveyVersions) {
      const input = {
        surveyKey: entry.definition.key,
        definitionJson: JSON.stringify(entry.definition),
        changeNote: `Resaved ${entry.version}`,
      };
      await expect(saveSurveyDefinition({ database: db, actor: admin, input, now })).resolves.toMatchObject({
        surveyKey: entry.definition.key,
      });
    }
  });

  it('shows the cohort distribution of latest completed responses, "<11" for small groups to suppressed roles, and clinicians their patients', async () => {
    const db = database.database;
    const rows = Array.from({ length: 40 }, (_, index) => ({
      pseudonym: `SYN-${index}`,
      source: 'simulation',
      sourceRecordId: `syn-${index}`,
      organisationId: index < 20 ? 'org-1' : 'org-2',
      persona: personas[index % personas.length]!,
      sex: index % 2 === 0 ? 'female' : 'male',
      synthetic: true,
    }));
    const inserted = await db.insert(patients).values(rows).returning({ id: patients.id, persona: patients.persona, sex: patients.sex });
    const count = await seedSurveyResponses({
      database: db,
      respondents: inserted.map((row) => ({
        patientId: row.id,
        persona: row.persona as (typeof personas)[number],
        sex: row.sex as 'female' | 'male',
        // In the app's form, where few leave a survey unfinished (the channels are the survey-evolution test's).
        preferredChannel: 'app' as const,
      })),
      seed: 11,
      end: now,
      days: 30,
    });
    const responses = await db
      .select({ surveyKey: surveyResponses.surveyKey, answers: surveyResponses.answers, completedAt: surveyResponses.completedAt })
      .from(surveyResponses);
    expect(responses).toHaveLength(count);
    // A posterior for each barrier response with an answer; the cohort counts completed responses only.
    const barrierAnswered = responses.filter((row) => row.surveyKey === 'adherence-barriers' && Object.keys(row.answers).length > 0).length;
    expect(await db.select({ id: patientPersonaPosteriors.patientId }).from(patientPersonaPosteriors)).toHaveLength(barrierAnswered);
    const lifestyleCount = responses.filter((row) => row.surveyKey === 'lifestyle' && row.completedAt !== null).length;
    expect(lifestyleCount).toBeGreaterThan(11);

    const forOfficial = await getLifestyleSurveysPage({ database: db, actor: official });
    const lifestyle = forOfficial.cohort.find((entry) => entry.surveyKey === 'lifestyle')!;
    expect(lifestyle.patients).toMatchObject({ count: lifestyleCount, suppressed: false });
    expect(lifestyle.includesSynthetic).toBe(true);
    const ipaq = lifestyle.measures.find((measure) => measure.measure === 'ipaq')!;
    expect(ipaq.answered.count).toBe(lifestyleCount);
    for (const category of ipaq.categories) {
      if (category.count.count !== null) expect(category.count.count === 0 || category.count.count >= 11).toBe(true);
      else expect(['<11', 'suppressed']).toContain(category.count.display);
    }
    expect(forOfficial.patientResults).toBeNull();
    expect(forOfficial.viewer).toBe('staff');

    // The clinician sees their organisation's patients only, unsuppressed, and each one's results.
    const forClinician = await getLifestyleSurveysPage({ database: db, actor: clinician });
    const organisationRows = await db
      .select({ id: surveyResponses.id })
      .from(surveyResponses)
      .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
      .where(and(eq(patients.organisationId, 'org-1'), isNotNull(surveyResponses.completedAt)));
    expect(forClinician.patientResults).toHaveLength(organisationRows.length);
    expect(forClinician.patientResults!.every((row) => Number(row.pseudonym.slice(4)) < 20)).toBe(true);
    // Each result in the words of the cohort's distribution, the persona included, no codes.
    const cohortWords = new Map(
      forClinician.cohort.flatMap((entry) => entry.measures.map((measure) => [`${entry.surveyKey} ${measure.measure}`, measure] as const)),
    );
    for (const row of forClinician.patientResults!) {
      expect(row.results.length).toBeGreaterThan(0);
      for (const result of row.results) {
        const measure = cohortWords.get(`${row.surveyKey} ${result.measure}`)!;
        expect(result.label).toBe(measure.label);
        expect(measure.categories.map((category) => category.label)).toContain(result.value);
      }
    }
    const ipaqResult = forClinician
      .patientResults!.find((row) => row.surveyKey === 'lifestyle')!
      .results.find((result) => result.measure === 'ipaq');
    expect(ipaqResult?.label).toBe('Physical activity (IPAQ category)');
    expect(['Low', 'Moderate', 'High', 'Excluded (over 960 minutes a day reported)']).toContain(ipaqResult?.value);
    const clinicianIpaq = forClinician.cohort
      .find((entry) => entry.surveyKey === 'lifestyle')!
      .measures.find((measure) => measure.measure === 'ipaq')!;
    expect(clinicianIpaq.categories.every((category) => !category.count.suppressed)).toBe(true);
    expect(clinicianIpaq.categories.reduce((sum, category) => sum + category.count.count!, 0)).toBe(clinicianIpaq.answered.count);

    const forPatient = await getLifestyleSurveysPage({ database: db, actor: patientUser });
    expect(forPatient.viewer).toBe('self');
    expect(forPatient.own).toEqual({ lifestyle: null, 'adherence-barriers': null });
  });
});
