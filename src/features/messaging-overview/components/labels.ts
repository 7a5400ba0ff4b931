/** What the overview calls its groups (browser-safe). */
import { channelLabels } from '@/lib/domain/channels';
import { messagingProgrammeLabels } from '@/lib/domain/messaging-programmes';

const channelNames: Record<string, string> = {
  ...channelLabels,
  none: 'No preference',
  all: 'All channels',
};

export function channelLabel(channel: string): string {
  return channelNames[channel] ?? channel;
}

/** "check-in" → "Check-in"; inbound rows without a category are "No category". */
export function categoryLabel(category: string): string {
  if (category === 'none') return 'No category';
  return category.charAt(0).toUpperCase() + category.slice(1);
}

export function programmeLabel(programme: string): string {
  if (programme === 'not-enrolled') return 'Not enrolled';
  return (messagingProgrammeLabels as Record<string, string>)[programme] ?? programme;
}

const sourceNames: Record<string, string> = {
  keyword: 'Keyword reply (STOP)',
  profile: 'Patient’s profile',
  clinician: 'Clinician',
  other: 'Other (import, demo data)',
};

export function optOutSourceLabel(source: string): string {
  return sourceNames[source] ?? source;
}
