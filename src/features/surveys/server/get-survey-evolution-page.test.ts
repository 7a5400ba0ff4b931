import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, dispensings, organisationMemberships, organisations, patients, surveyDefinitions, surveyResponses } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { ageBands, personas } from '@/engine/simulation/personas';
import {
  adherenceBarriersSurvey,
  adherenceBarriersSurveyVersion1,
  adherenceBarriersSurveyVersion2,
  adherenceBarriersSurveyVersion3,
  builtInSurveyVersions,
  questionInformation,
  responseInformation,
} from '@/engine/surveys';
import { fillSurveyResponseInformation } from './fill-survey-response-information';
import { getSurveyEvolutionPage } from './get-survey-evolution-page';
import { saveSurveyDefinition } from './save-survey-definition';
import { seedSurveyResponses } from './seed-survey-responses';

const clinician = { id: 'clinician-user', role: 'clinician' as const };
const official = { id: 'official-user', role: 'government-official' as const };
const admin = { id: 'admin-user', role: 'admin' as const };
const now = new Date('2026-03-01T10:00:00Z');

describe.each(testDatabaseBackends())('survey evolution on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db
      .insert(authUsers)
      .values([clinician, official, admin].map((user) => ({ id: user.id, name: user.id, email: `${user.id}@example.org` })));
    await db.insert(organisations).values([
      { id: 'org-1', name: 'Clinic one' },
      { id: 'org-2', name: 'Clinic two' },
    ]);
    await db.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-1' });
    const inserted = await db
      .insert(patients)
      .values(
        Array.from({ length: 60 }, (_, index) => ({
          pseudonym: `SYN-${index}`,
          source: 'simulation',
          sourceRecordId: `syn-${index}`,
          organisationId: index < 30 ? 'org-1' : 'org-2',
          persona: personas[index % personas.length]!,
          sex: index % 2 === 0 ? 'female' : 'male',
          // Most have an age band on their record, which the barrier survey takes from there (decision 068).
          ageBand: index % 10 === 9 ? null : ageBands[index % ageBands.length]!,
          // Every persona on every channel: the app's form (web), WhatsApp and SMS.
          preferredChannel: (['app', 'whatsapp', 'sms'] as const)[Math.floor(index / personas.length) % 3]!,
          synthetic: true,
        })),
      )
      .returning({ id: patients.id, persona: patients.persona, sex: patients.sex, preferredChannel: patients.preferredChannel });
    // Some have a 90-day supply on their record, some 30 days, some no dispensing yet.
    await db.insert(dispensings).values(
      inserted.flatMap((row, index) =>
        index % 3 === 2
          ? []
          : [
              {
                patientId: row.id,
                dispensedOn: '2026-02-01',
                daysSupply: index % 3 === 0 ? 90 : 30,
                source: 'test',
                sourceRecordId: `fill-${index}`,
              },
            ],
      ),
    );
    await seedSurveyResponses({
      database: db,
      respondents: inserted.map((row) => ({
        patientId: row.id,
        persona: row.persona as (typeof personas)[number],
        sex: row.sex as 'female',
        preferredChannel: row.preferredChannel as 'app' | 'whatsapp' | 'sms',
      })),
      seed: 11,
      end: now,
      days: 30,
    });
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('lists every version with what changed, rates per version and channel, the bits each question added, and the accuracy curves', async () => {
    const db = database.database;
    // The store brought the built-in versions 2 and 3 on top of version 1; the demo seed answered version 3, the
    // current one.
    const edited = structuredClone(adherenceBarriersSurvey) as typeof adherenceBarriersSurvey & {
      questions: { id: string; text: string }[];
    };
    edited.questions.find((question) => question.id === 'forgetting')!.text = 'In the last two weeks, how often did a dose slip your mind?';
    await saveSurveyDefinition({
      database: db,
      actor: admin,
      input: { surveyKey: 'adherence-barriers', definitionJson: JSON.stringify(edited), changeNote: 'Plainer wording' },
      now,
    });

    const page = await getSurveyEvolutionPage({ database: db, actor: admin });
    expect(page.patientsInScope).toMatchObject({ count: 60, suppressed: false });
    expect(page.includesSynthetic).toBe(true);
    expect(page.suppressed).toBe(false);

    const barriers = page.surveys.find((survey) => survey.surveyKey === 'adherence-barriers')!;
    expect(barriers.versions.map((version) => version.version)).toEqual([5, 4, 3, 2, 1]);
    expect(barriers.versions[0]).toMatchObject({ changeNote: 'Plainer wording', changes: ['Question forgetting reworded.'], channels: [] });
    const builtInNote = (version: number) =>
      builtInSurveyVersions.find((entry) => entry.definition.key === 'adherence-barriers' && entry.version === version)!.changeNote;
    const addedTo = (before: { questions: readonly { id: string }[] }, after: { questions: readonly { id: string }[] }) =>
      after.questions
        .filter((question) => !before.questions.some((old) => old.id === question.id))
        .map((question) => `Question ${question.id} added.`);
    expect(barriers.versions[1]).toMatchObject({
      changeNote: builtInNote(4),
      changes: [
        'Question age-band is answered from the patient’s record (age-band) where it holds it.',
        'Question supply-length is answered from the patient’s record (days-supply) where it holds it.',
        'Question contact-channel is answered from the patient’s record (preferred-channel) where it holds it.',
      ],
      questionCount: 29,
    });
    expect(barriers.versions[2]).toMatchObject({
      changeNote: builtInNote(3),
      changes: addedTo(adherenceBarriersSurveyVersion2, adherenceBarriersSurveyVersion3),
      questionCount: 29,
      channels: [],
    });
    expect(barriers.versions[3]).toMatchObject({
      changeNote: builtInNote(2),
      changes: ['Description reworded.', ...addedTo(adherenceBarriersSurveyVersion1, adherenceBarriersSurveyVersion2)],
      questionCount: 22,
      channels: [],
    });
    expect(barriers.versions[4]).toMatchObject({ changeNote: null, changes: [], questionCount: 8, channels: [] });
    const first = barriers.versions[1]!;
    const stored = await db
      .select({ patientId: surveyResponses.patientId, channel: surveyResponses.channel, completedAt: surveyResponses.completedAt })
      .from(surveyResponses)
      .where(eq(surveyResponses.surveyKey, 'adherence-barriers'));
    // A row per channel the demo answered on, each with its own counts and rates.
    expect(first.channels.map((rate) => rate.channel)).toEqual(['sms', 'web', 'whatsapp']);
    for (const rate of first.channels) {
      const onChannel = stored.filter((row) => row.channel === rate.channel);
      const completed = onChannel.filter((row) => row.completedAt !== null).length;
      expect(rate).toMatchObject({ started: { count: onChannel.length }, completed: { count: completed } });
      expect(rate.responseRate).toBeCloseTo(onChannel.length / 60, 10);
      expect(rate.completionRate).toBeCloseTo(completed / onChannel.length, 10);
    }
    // Some leave a survey by message unfinished; in the form almost nobody does.
    expect(stored.some((row) => row.channel !== 'web' && row.completedAt === null)).toBe(true);
    expect(first.channels.find((rate) => rate.channel === 'web')!.completionRate).toBeGreaterThan(
      first.channels.find((rate) => rate.channel === 'sms')!.completionRate!,
    );
    // Every response asked the top question first: it removed information on average; unasked ones have none.
    const asked = first.questions.filter((question) => question.answered.count! > 0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((question) => question.informative && question.meanBits !== null)).toBe(true);
    expect(first.questions.filter((question) => question.answered.count === 0).every((question) => question.meanBits === null)).toBe(true);
    const lifestyle = page.surveys.find((survey) => survey.surveyKey === 'lifestyle')!.versions[0]!;
    expect(lifestyle.questions.every((question) => !question.informative)).toBe(true);
    expect(
      lifestyle.questions.filter((question) => question.meanBits !== null).every((question) => Math.abs(question.meanBits!) < 1e-12),
    ).toBe(true);

    // Patients whose record holds their age band were not asked it but have it among their answers (decision 068);
    // the questions' counts are of patients asked.
    const barrierResponses = await db
      .select({ ageBand: patients.ageBand, answers: surveyResponses.answers, askedOrder: surveyResponses.askedOrder })
      .from(surveyResponses)
      .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
      .where(eq(surveyResponses.surveyKey, 'adherence-barriers'));
    const withAgeBand = barrierResponses.filter((response) => response.ageBand !== null);
    expect(withAgeBand.length).toBeGreaterThan(0);
    for (const response of withAgeBand) {
      expect(response.askedOrder).not.toContain('age-band');
      expect(response.answers['age-band']).toBe(response.ageBand!.replace('+', '-plus'));
    }
    expect(first.questions.find((question) => question.id === 'age-band')!.answered.count).toBe(
      barrierResponses.filter((response) => response.askedOrder.includes('age-band')).length,
    );
    expect(first.questions.find((question) => question.id === 'contact-channel')!.answered.count).toBe(0);

    // The current version's accuracy (the reworded version 5 has version 4's likelihoods and record fields, so its
    // figures): 80% is reached in both orders, the adaptive order first (docs/decisions/062, 068).
    expect(page.accuracy).toMatchObject({
      surveyKey: 'adherence-barriers',
      version: 5,
      fromRecord: ['age-band', 'supply-length', 'contact-channel'],
    });
    expect(page.accuracy!.result.curve).toHaveLength(adherenceBarriersSurvey.questions.length - 3 + 1);
    expect(page.accuracy!.fixedOrder[0]).toBe('treatment-time');
    expect(page.accuracy!.result.adaptiveQuestionsToTarget).not.toBeNull();
    expect(page.accuracy!.result.fixedQuestionsToTarget).toBeGreaterThan(page.accuracy!.result.adaptiveQuestionsToTarget!);
  });

  it('sums the information figures stored with the responses, works out those stored without them, and the fill stores them', async () => {
    const db = database.database;
    const responses = await db
      .select({
        id: surveyResponses.id,
        definitionId: surveyResponses.definitionId,
        answers: surveyResponses.answers,
        askedOrder: surveyResponses.askedOrder,
        channel: surveyResponses.channel,
        organisationId: patients.organisationId,
        informationBits: surveyResponses.informationBits,
        definition: surveyDefinitions.definition,
      })
      .from(surveyResponses)
      .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
      .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId));
    // The seed stored each response's figures as the product does.
    for (const response of responses) expect(response.informationBits).toEqual(responseInformation(response.definition, response));
    const expected = (organisationId: string | null) =>
      new Map(
        [...new Set(responses.map((response) => response.definitionId))].map((definitionId) => {
          const ofVersion = responses.filter(
            (response) => response.definitionId === definitionId && (organisationId === null || response.organisationId === organisationId),
          );
          return [definitionId, questionInformation(ofVersion[0]!.definition, { responses: ofVersion })];
        }),
      );
    const definitionIds = await db
      .select({ id: surveyDefinitions.id, surveyKey: surveyDefinitions.surveyKey, version: surveyDefinitions.version })
      .from(surveyDefinitions);
    const expectPageToShow = async (actor: typeof admin | typeof clinician, organisationId: string | null) => {
      const page = await getSurveyEvolutionPage({ database: db, actor });
      let compared = 0;
      for (const [definitionId, information] of expected(organisationId)) {
        const { surveyKey, version } = definitionIds.find((row) => row.id === definitionId)!;
        const shown = page.surveys.find((survey) => survey.surveyKey === surveyKey)!.versions.find((row) => row.version === version)!;
        for (const entry of information) {
          const question = shown.questions.find((row) => row.id === entry.questionId)!;
          expect(question.answered.count).toBe(entry.answered);
          if (entry.answered === 0) expect(question.meanBits).toBeNull();
          else expect(question.meanBits).toBeCloseTo(entry.meanBits, 10);
          compared += entry.answered;
        }
      }
      expect(compared).toBeGreaterThan(0);
    };
    await expectPageToShow(admin, null);
    await expectPageToShow(clinician, 'org-1');

    // Responses stored without their figures (before migration 0029; an older instance during a deploy): the same.
    const unfilled = await db
      .update(surveyResponses)
      .set({ informationBits: null })
      .where(inArray(surveyResponses.channel, ['sms', 'web']))
      .returning({ id: surveyResponses.id, answers: surveyResponses.answers });
    expect(unfilled.length).toBeGreaterThan(0);
    expect(unfilled.length).toBeLessThan(responses.length);
    await expectPageToShow(admin, null);
    await expectPageToShow(clinician, 'org-1');

    // The start-up fill stores exactly those, in batches, and the page shows the same again.
    expect(await fillSurveyResponseInformation({ database: db, batchSize: 7 })).toBe(
      // A response started but not answered yet has nothing to work out.
      unfilled.filter((response) => Object.keys(response.answers).length > 0).length,
    );
    expect(await fillSurveyResponseInformation({ database: db })).toBe(0);
    const filled = await db
      .select({
        id: surveyResponses.id,
        answers: surveyResponses.answers,
        askedOrder: surveyResponses.askedOrder,
        informationBits: surveyResponses.informationBits,
        definition: surveyDefinitions.definition,
      })
      .from(surveyResponses)
      .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId));
    const nulled = new Set(unfilled.map((response) => response.id));
    for (const response of filled)
      // A response started but not answered yet has nothing to work out: it keeps its null.
      expect(response.informationBits).toEqual(
        nulled.has(response.id) && Object.keys(response.answers).length === 0 ? null : responseInformation(response.definition, response),
      );
    await expectPageToShow(admin, null);
  });

  it('counts the clinician’s organisation only; suppresses small counts and their rates for suppressed roles', async () => {
    const db = database.database;
    const forClinician = await getSurveyEvolutionPage({ database: db, actor: clinician });
    expect(forClinician.patientsInScope.count).toBe(30);
    const organisationResponses = await db
      .select({ id: surveyResponses.id })
      .from(surveyResponses)
      .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
      .where(eq(patients.organisationId, 'org-1'));
    const started = forClinician.surveys.flatMap((survey) =>
      survey.versions.flatMap((version) => version.channels.map((rate) => rate.started.count!)),
    );
    expect(started.reduce((sum, value) => sum + value, 0)).toBe(organisationResponses.length);

    const forOfficial = await getSurveyEvolutionPage({ database: db, actor: official });
    expect(forOfficial.suppressed).toBe(true);
    const rows = forOfficial.surveys.flatMap((survey) => survey.versions);
    for (const rate of rows.flatMap((version) => version.channels)) {
      if (rate.started.suppressed) expect(rate.responseRate).toBeNull();
      else expect(rate.started.count! >= 11 || rate.started.count === 0).toBe(true);
    }
    const questions = rows.flatMap((version) => version.questions);
    for (const question of questions) if (question.answered.suppressed) expect(question.meanBits).toBeNull();
    // With 60 patients some barrier questions are asked of fewer than 11: they are hidden.
    expect(questions.some((question) => question.answered.display === '<11')).toBe(true);
    await expect(getSurveyEvolutionPage({ database: db, actor: null })).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
