import type { PersonalisedSettings } from '@/engine/policy/personalised';
import { formatNumber, formatPercent } from '@/lib/format';
import { timeOfMinute } from '../schemas';

export function describeSettings(settings: PersonalisedSettings): string {
  const quiet =
    settings.quietHours === null
      ? 'no quiet hours'
      : `quiet hours ${timeOfMinute(settings.quietHours.startMinute)}–${timeOfMinute(settings.quietHours.endMinute)}`;
  return `at most ${settings.messagesPerWeekCap} messages a week, ${quiet}, a chance of sending each day between ${formatPercent(settings.sendProbabilityFloor)} and ${formatPercent(settings.sendProbabilityCeiling)}, burden weight ${formatNumber(settings.burdenWeight, 3)}`;
}
