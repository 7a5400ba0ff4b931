/** What an operator may set for the personalised policy (stored beside each policy state). */

export type PersonalisedSettings = {
  /** Least chance of sending on a day a message is allowed: keeps exploring "message" (0.2). */
  sendProbabilityFloor: number;
  /** Greatest chance of sending: keeps exploring "no message", so advantages stay estimable (0.8). */
  sendProbabilityCeiling: number;
  /**
   * Burden: a message must beat `burdenWeight × (messages in the last 7 days) / 7` in observed-reward units
   * (share of doses confirmed) to be worth sending; at a daily load it must add this much.
   */
  burdenWeight: number;
  /** At most this many messages in any 7 days; once reached, no message. */
  messagesPerWeekCap: number;
  /** Local minutes in which nothing is sent (may wrap past midnight); null for none. */
  quietHours: { startMinute: number; endMinute: number } | null;
};

/*
 * Defaults: the floor and ceiling are the issue's; the cap of 4 a week keeps the load at about half of a
 * daily reminder's at most; quiet hours 22:00–07:00 because night-time messages provoke STOP replies
 * (message-response.ts triples them) and nobody reads them before waking anyway. The burden weight is a
 * judgement: at a daily load a further message must add two points of confirmed doses.
 */
export const defaultPersonalisedSettings: PersonalisedSettings = {
  sendProbabilityFloor: 0.2,
  sendProbabilityCeiling: 0.8,
  burdenWeight: 0.02,
  messagesPerWeekCap: 4,
  quietHours: { startMinute: 22 * 60, endMinute: 7 * 60 },
};

export function resolveSettings(settings: Partial<PersonalisedSettings> | undefined): PersonalisedSettings {
  const resolved = { ...defaultPersonalisedSettings, ...settings };
  const { sendProbabilityFloor: floor, sendProbabilityCeiling: ceiling, burdenWeight, messagesPerWeekCap, quietHours } = resolved;
  if (!(floor >= 0 && floor <= ceiling && ceiling <= 1))
    throw new RangeError(
      `sendProbabilityFloor and sendProbabilityCeiling must satisfy 0 ≤ floor ≤ ceiling ≤ 1, got ${floor} and ${ceiling}`,
    );
  if (!(burdenWeight >= 0 && Number.isFinite(burdenWeight)))
    throw new RangeError(`burdenWeight must be a non-negative number, got ${burdenWeight}`);
  if (!(Number.isInteger(messagesPerWeekCap) && messagesPerWeekCap >= 0))
    throw new RangeError(`messagesPerWeekCap must be a non-negative integer, got ${messagesPerWeekCap}`);
  if (quietHours !== null) {
    for (const [name, minute] of [
      ['quietHours.startMinute', quietHours.startMinute],
      ['quietHours.endMinute', quietHours.endMinute],
    ] as const) {
      if (!(Number.isInteger(minute) && minute >= 0 && minute < 1440))
        throw new RangeError(`${name} must be a minute from 0 to 1439, got ${minute}`);
    }
  }
  return resolved;
}

/** Whether `minute` falls in the quiet hours (start inclusive, end exclusive; wrapping past midnight). */
export function inQuietHours(minute: number, quietHours: PersonalisedSettings['quietHours']): boolean {
  if (quietHours === null || quietHours.startMinute === quietHours.endMinute) return false;
  const { startMinute, endMinute } = quietHours;
  return startMinute < endMinute ? minute >= startMinute && minute < endMinute : minute >= startMinute || minute < endMinute;
}
