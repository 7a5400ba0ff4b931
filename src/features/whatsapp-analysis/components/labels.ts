/** Words the WhatsApp analysis views share (browser-safe). */
import type { ReplyIntent, ReplyReason } from '../reply-intent';

export const whatsappAnalysisPath = '/algorithms/patient-engagement/whatsapp-analysis';

export { channelLabels } from '@/lib/domain/channels';

export const intentLabels: Readonly<Record<ReplyIntent, string>> = {
  taken: 'Taken',
  missed: 'Missed',
  question: 'Question',
  stop: 'STOP (opt-out)',
  other: 'Other',
};

export const reasonLabels: Readonly<Record<ReplyReason, string>> = {
  forgot: 'forgot',
  'side-effects': 'side effects',
  'ran-out': 'ran out',
  cost: 'cost',
  'felt-fine': 'felt fine',
  other: 'another reason',
  none: 'no reason given',
};
