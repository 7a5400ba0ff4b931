import { describe, expect, it } from 'vitest';
import { adherenceBarriersSurvey, lifestyleSurvey, type SurveyDefinition } from '@/engine/surveys';
import { summaryLabeller } from './get-lifestyle-surveys-page';

describe('summaryLabeller', () => {
  it('puts a stored summary in the words of the version it was taken on', () => {
    expect(summaryLabeller(lifestyleSurvey)({ ipaq: 'high', 'audit-c': 'positive' })).toEqual([
      { measure: 'ipaq', label: 'Physical activity (IPAQ category)', value: 'High' },
      { measure: 'audit-c', label: 'Alcohol (AUDIT-C screen)', value: 'At or above the cut-off' },
    ]);
    const stopReason = adherenceBarriersSurvey.questions.find((question) => question.id === 'stop-reason')!;
    if (stopReason.kind !== 'choice') throw new Error('stop-reason is a choice question');
    const option = stopReason.options[1]!;
    expect(
      summaryLabeller(adherenceBarriersSurvey)({ persona: 'medication-sceptic', 'stop-reason': option.value, 'barrier:cost': 'no' }),
    ).toEqual([
      { measure: 'persona', label: 'Most likely persona', value: 'Medication sceptic' },
      { measure: 'stop-reason', label: stopReason.text, value: option.label },
      {
        measure: 'barrier:cost',
        label: adherenceBarriersSurvey.questions.find((question) => question.topic === 'barrier:cost')!.text,
        value: 'Never',
      },
    ]);
  });

  it('reads a reworded version in its own words, and keeps the key of anything the version does not describe', () => {
    const smoking = lifestyleSurvey.questions.find((question) => question.id === 'smoking')!;
    if (smoking.kind !== 'choice') throw new Error('smoking is a choice question');
    const reworded: SurveyDefinition = {
      ...lifestyleSurvey,
      questions: lifestyleSurvey.questions.map((question) =>
        question.id === 'smoking' ? { ...smoking, text: 'Do you smoke?' } : question,
      ),
    };
    expect(summaryLabeller(reworded)({ smoking: smoking.options[0]!.value, 'no-such-measure': 'value' })).toEqual([
      { measure: 'smoking', label: 'Do you smoke?', value: smoking.options[0]!.label },
      { measure: 'no-such-measure', label: 'no-such-measure', value: 'value' },
    ]);
  });
});
