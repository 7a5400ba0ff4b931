import { describe, expect, it } from 'vitest';
import type { SurveyMessageStatus } from '../schemas';
import { describeSentSurvey, mayChangeByItself } from './sent-survey-sentence';

const waiting: SurveyMessageStatus = {
  responseId: 'r',
  surveyKey: 'lifestyle',
  completedAt: null,
  last: { kind: 'questions', channel: 'sms', status: 'awaiting', statusReason: null, questions: 3, at: '2026-11-25T09:00:00.000Z' },
  remindedAt: null,
  reminderDueAt: '2026-11-27T09:00:00.000Z',
};

describe('describeSentSurvey', () => {
  it('says what waits and when the one reminder would go', () => {
    expect(describeSentSurvey(waiting)).toBe(
      'Last sent 3 questions (SMS, 25 Nov 2026, 09:00 UTC), waiting for the patient’s answer. If it stays unanswered, one reminder goes automatically from 27 Nov 2026, 09:00 UTC (not in quiet hours).',
    );
  });

  it('says the reminder went, once, and never promises another', () => {
    const reminded = describeSentSurvey({
      ...waiting,
      last: { ...waiting.last, kind: 'invitation', channel: 'whatsapp', questions: 0, at: '2026-11-27T09:00:00.000Z' },
      remindedAt: '2026-11-27T09:00:00.000Z',
      reminderDueAt: null,
    });
    expect(reminded).toBe(
      'Last sent an invitation (WhatsApp, 27 Nov 2026, 09:00 UTC), waiting for the patient’s answer. Reminded automatically once, 27 Nov 2026, 09:00 UTC; no further reminder goes.',
    );
  });

  it('names a decline, a message not sent with its reason, and a completed survey', () => {
    expect(describeSentSurvey({ ...waiting, last: { ...waiting.last, status: 'declined' }, reminderDueAt: null })).toContain(
      'the patient answered “Not now”',
    );
    expect(
      describeSentSurvey({ ...waiting, last: { ...waiting.last, status: 'not-sent', statusReason: 'no-consent' }, reminderDueAt: null }),
    ).toBe('The last message was not sent (no-consent).');
    expect(describeSentSurvey({ ...waiting, completedAt: '2026-11-26T10:00:00.000Z', reminderDueAt: null })).toBe(
      'Completed 26 Nov 2026, 10:00 UTC.',
    );
  });
});

describe('mayChangeByItself (the profile polls the list while one does)', () => {
  it('is true while a message is being sent, awaits the patient or was answered with more to come', () => {
    for (const status of ['sending', 'awaiting', 'answered'])
      expect(mayChangeByItself({ ...waiting, last: { ...waiting.last, status } }), status).toBe(true);
  });

  it('is false once only a person can move it on, or it is over', () => {
    for (const status of ['declined', 'not-sent', 'expired', 'held'])
      expect(mayChangeByItself({ ...waiting, last: { ...waiting.last, status } }), status).toBe(false);
    expect(mayChangeByItself({ ...waiting, completedAt: '2026-11-26T10:00:00.000Z' })).toBe(false);
  });
});
