import { describe, expect, it } from 'vitest';
import {
  adherenceBarriersSurvey,
  adherenceBarriersSurveyVersion1,
  adherenceBarriersSurveyVersion2,
  adherenceBarriersSurveyVersion3,
  builtInSurveyVersions,
  lifestyleSurvey,
} from './definitions';
import { describeDefinitionChanges, questionInformation, responseInformation } from './evolution';
import { entropy, posteriorFromAnswers, uniformPrior } from './inference';
import type { ChoiceQuestion, SurveyAnswers, SurveyDefinition } from './types';

describe('describeDefinitionChanges', () => {
  it('says nothing for an identical version', () => {
    expect(describeDefinitionChanges(adherenceBarriersSurvey, structuredClone(adherenceBarriersSurvey))).toEqual([]);
  });

  it('names added, removed, reworded and re-weighted questions and a new order', () => {
    const [first, second, ...rest] = adherenceBarriersSurveyVersion1.questions as ChoiceQuestion[];
    const reweighted: ChoiceQuestion = {
      ...second!,
      options: second!.options.map((option, index) =>
        index === 0 ? { ...option, likelihoods: { ...option.likelihoods, 'busy-professional': 0.5 } } : option,
      ),
    };
    const next: SurveyDefinition = {
      ...adherenceBarriersSurveyVersion1,
      order: 'fixed',
      questions: [{ ...first!, text: 'Reworded?' }, reweighted, ...rest.slice(1), { ...rest[0]!, id: 'new-one' }],
    };
    expect(describeDefinitionChanges(adherenceBarriersSurveyVersion1, next)).toEqual([
      'Order changed from adaptive to fixed.',
      'Question forgetting reworded.',
      'Question routine: P(answer | persona) changed.',
      'Question new-one added.',
      'Question concerns removed.',
    ]);
  });
});

describe('the built-in versions 2, 3 and 4 of the barrier survey (docs/decisions/055, 062, 068)', () => {
  it('version 2 adds questions and rewords the description, leaving the version 1 questions and their order as they were', () => {
    const added = adherenceBarriersSurveyVersion2.questions
      .filter((question) => !adherenceBarriersSurveyVersion1.questions.some((old) => old.id === question.id))
      .map((question) => `Question ${question.id} added.`);
    expect(added).toHaveLength(14);
    expect(describeDefinitionChanges(adherenceBarriersSurveyVersion1, adherenceBarriersSurveyVersion2)).toEqual([
      'Description reworded.',
      ...added,
    ]);
  });

  it('version 3 only adds questions: version 2’s keep their wording, likelihoods and order among themselves', () => {
    const added = adherenceBarriersSurveyVersion3.questions
      .filter((question) => !adherenceBarriersSurveyVersion2.questions.some((old) => old.id === question.id))
      .map((question) => `Question ${question.id} added.`);
    expect(added).toHaveLength(7);
    expect(describeDefinitionChanges(adherenceBarriersSurveyVersion2, adherenceBarriersSurveyVersion3)).toEqual(added);
    const kept = adherenceBarriersSurveyVersion3.questions.filter((question) =>
      adherenceBarriersSurveyVersion2.questions.some((old) => old.id === question.id),
    );
    expect(kept).toEqual(adherenceBarriersSurveyVersion2.questions);
  });

  it('version 4 only takes the age group, the preferred channel and the supply from the record: nothing else changes', () => {
    expect(describeDefinitionChanges(adherenceBarriersSurveyVersion3, adherenceBarriersSurvey)).toEqual([
      'Question age-band is answered from the patient’s record (age-band) where it holds it.',
      'Question supply-length is answered from the patient’s record (days-supply) where it holds it.',
      'Question contact-channel is answered from the patient’s record (preferred-channel) where it holds it.',
    ]);
    const withoutRecordFields = adherenceBarriersSurvey.questions.map((question) =>
      question.kind === 'choice' ? { ...question, recordField: undefined } : question,
    );
    // toEqual treats an undefined property as absent.
    expect(withoutRecordFields).toEqual(adherenceBarriersSurveyVersion3.questions);
    // And back: a version that asks again says so.
    expect(describeDefinitionChanges(adherenceBarriersSurvey, adherenceBarriersSurveyVersion3)).toEqual([
      'Question age-band is asked again rather than answered from the patient’s record.',
      'Question supply-length is asked again rather than answered from the patient’s record.',
      'Question contact-channel is asked again rather than answered from the patient’s record.',
    ]);
  });

  it('every answer label of version 3 fits a WhatsApp reply button (20 characters)', () => {
    for (const question of adherenceBarriersSurvey.questions)
      if (question.kind === 'choice') for (const option of question.options) expect(option.label.length).toBeLessThanOrEqual(20);
  });

  it('are listed in order with change notes, and the versions of each survey are numbered 1, 2, …', () => {
    const barrierVersions = builtInSurveyVersions.filter((entry) => entry.definition.key === 'adherence-barriers');
    expect(barrierVersions.map((entry) => entry.version)).toEqual([1, 2, 3, 4]);
    expect(barrierVersions[0]!.changeNote).toBeNull();
    expect(barrierVersions[1]!.changeNote).toMatch(/barrier questions are unchanged/);
    expect(barrierVersions[1]!.definition).toBe(adherenceBarriersSurveyVersion2);
    expect(barrierVersions[2]!.changeNote).toMatch(/22 questions of version 2 are unchanged/);
    expect(barrierVersions[2]!.definition).toBe(adherenceBarriersSurveyVersion3);
    expect(barrierVersions[3]!.changeNote).toMatch(/taken from the patient’s record/);
    expect(barrierVersions[3]!.definition).toBe(adherenceBarriersSurvey);
  });
});

describe('questionInformation', () => {
  it('averages the entropy each answer removed, in the order asked', () => {
    const responses: { answers: SurveyAnswers; askedOrder: string[] }[] = [
      { answers: { cost: 'often', forgetting: 'never' }, askedOrder: ['cost', 'forgetting'] },
      { answers: { cost: 'never' }, askedOrder: ['cost'] },
    ];
    const information = questionInformation(adherenceBarriersSurvey, { responses });
    const h0 = entropy(uniformPrior());
    const afterCostOften = posteriorFromAnswers(adherenceBarriersSurvey, { cost: 'often' });
    const afterBoth = posteriorFromAnswers(adherenceBarriersSurvey, { cost: 'often', forgetting: 'never' });
    const afterCostNever = posteriorFromAnswers(adherenceBarriersSurvey, { cost: 'never' });
    const cost = information.find((entry) => entry.questionId === 'cost')!;
    const forgetting = information.find((entry) => entry.questionId === 'forgetting')!;
    expect(cost.answered).toBe(2);
    expect(cost.meanBits).toBeCloseTo((h0 - entropy(afterCostOften) + h0 - entropy(afterCostNever)) / 2, 10);
    expect(forgetting.answered).toBe(1);
    expect(forgetting.meanBits).toBeCloseTo(entropy(afterCostOften) - entropy(afterBoth), 10);
    expect(information.find((entry) => entry.questionId === 'routine')).toEqual({ questionId: 'routine', answered: 0, meanBits: 0 });
  });

  it('adds the sums stored figures give to the responses it works out itself', () => {
    const responses = [{ answers: { cost: 'often', forgetting: 'never' }, askedOrder: ['cost', 'forgetting'] }];
    const worked = responseInformation(adherenceBarriersSurvey, responses[0]!);
    const information = questionInformation(adherenceBarriersSurvey, {
      responses,
      stored: [
        { questionId: 'cost', answered: 3, bits: 0.9 },
        { questionId: 'no-such-question', answered: 5, bits: 2 },
      ],
    });
    expect(information.find((entry) => entry.questionId === 'cost')).toEqual({
      questionId: 'cost',
      answered: 4,
      meanBits: (0.9 + worked.cost!) / 4,
    });
    expect(information.find((entry) => entry.questionId === 'forgetting')!.answered).toBe(1);
    expect(information.some((entry) => entry.questionId === 'no-such-question')).toBe(false);
  });
});

describe('responseInformation', () => {
  it('gives each answered choice question the bits it removed where it was asked; lifestyle items 0', () => {
    const h0 = entropy(uniformPrior());
    // `forgetting` is in the answers but not in the asked order: it comes after.
    const bits = responseInformation(adherenceBarriersSurvey, {
      answers: { cost: 'often', forgetting: 'never' },
      askedOrder: ['cost'],
    });
    const afterCost = posteriorFromAnswers(adherenceBarriersSurvey, { cost: 'often' });
    const afterBoth = posteriorFromAnswers(adherenceBarriersSurvey, { cost: 'often', forgetting: 'never' });
    expect(Object.keys(bits)).toEqual(['cost', 'forgetting']);
    expect(bits.cost).toBeCloseTo(h0 - entropy(afterCost), 12);
    expect(bits.forgetting).toBeCloseTo(entropy(afterCost) - entropy(afterBoth), 12);
    // A choice item of the lifestyle survey counts 0 bits; a number item (minutes sitting) is not a choice question.
    const lifestyle = responseInformation(lifestyleSurvey, {
      answers: { 'audit-c-frequency': 'never', 'ipaq-sitting-minutes': 300 },
      askedOrder: ['audit-c-frequency', 'ipaq-sitting-minutes'],
    });
    expect(Object.keys(lifestyle)).toEqual(['audit-c-frequency']);
    expect(lifestyle['audit-c-frequency']).toBeCloseTo(0, 12);
  });
});
