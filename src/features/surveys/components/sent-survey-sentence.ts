import type { SurveyMessageStatus } from '../schemas';

const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const channelNames = { whatsapp: 'WhatsApp', sms: 'SMS' } as const;
const at = (iso: string) => `${timeFormat.format(new Date(iso))} UTC`;

/** Where a survey sent by message stands, in words: its latest message, then the one automatic reminder. */
export function describeSentSurvey(survey: SurveyMessageStatus): string {
  const { last } = survey;
  const what =
    last.kind === 'invitation'
      ? `an invitation (WhatsApp, ${at(last.at)})`
      : `${last.questions} question${last.questions === 1 ? '' : 's'} (${channelNames[last.channel]}, ${at(last.at)})`;
  let state: string;
  if (survey.completedAt !== null) state = `Completed ${at(survey.completedAt)}.`;
  else if (last.status === 'awaiting') state = `Last sent ${what}, waiting for the patient’s answer.`;
  else if (last.status === 'answered') state = `Last sent ${what}, answered; the next questions follow.`;
  else if (last.status === 'declined') state = `Last sent ${what}; the patient answered “Not now”.`;
  else if (last.status === 'held') state = `Last sent ${what}; a reply we could not read is under “Replies to read”.`;
  else if (last.status === 'not-sent') state = `The last message was not sent (${last.statusReason ?? 'no reason recorded'}).`;
  else if (last.status === 'expired') state = `Last sent ${what}; it went unanswered.`;
  else state = `Last message ${what} is being sent.`;
  const reminder =
    survey.remindedAt !== null
      ? ` Reminded automatically once, ${at(survey.remindedAt)}; no further reminder goes.`
      : survey.reminderDueAt !== null
        ? ` If it stays unanswered, one reminder goes automatically from ${at(survey.reminderDueAt)} (not in quiet hours).`
        : '';
  return `${state}${reminder}`;
}

/**
 * A survey whose state can still move on by itself: sent, awaiting the patient, or answered with more to come. Not
 * one declined, not sent, expired or held for a person: only someone acting here moves those on.
 */
export function mayChangeByItself(survey: SurveyMessageStatus): boolean {
  return survey.completedAt === null && !['declined', 'not-sent', 'expired', 'held'].includes(survey.last.status);
}
