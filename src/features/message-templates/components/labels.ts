import type { TemplateApprovalStatus, WhatsAppCategory } from '@/engine/messaging';

export const approvalLabels: Readonly<Record<TemplateApprovalStatus, string>> = {
  'not-submitted': 'Not submitted',
  pending: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  paused: 'Paused',
  disabled: 'Disabled',
};

export const categoryLabels: Readonly<Record<WhatsAppCategory, string>> = { utility: 'Utility', marketing: 'Marketing' };

export const messageCategoryLabels: Readonly<Record<string, string>> = {
  reminder: 'Reminders',
  refill: 'Refills',
  education: 'Education',
  encouragement: 'Encouragement',
  'check-in': 'Check-ins',
};

export const framingLabels: Readonly<Record<string, string>> = {
  neutral: 'Neutral: says it plainly',
  gain: 'Gain: what taking it brings',
  loss: 'Loss: what missing it risks',
  social: 'Social: what other people do',
  invitation: 'Invitation: opens a survey outside the 24-hour window',
  'invitation-reminder': 'Reminder: the invitation’s one automatic reminder, two days on',
};
