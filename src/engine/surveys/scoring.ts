/**
 * Scoring of the lifestyle instruments (docs/decisions/041).
 *
 * IPAQ short form: "Guidelines for Data Processing and Analysis of the International Physical Activity
 * Questionnaire (IPAQ) – Short and Long Forms", November 2005, §5 (MET values: walking 3.3, moderate 4.0,
 * vigorous 8.0), §7 (data processing: bouts under 10 minutes count as 0, daily times over 180 minutes are
 * truncated to 180; a total of walking, moderate and vigorous time over 960 minutes a day is excluded) and
 * §4 (categories low, moderate, high).
 *
 * AUDIT-C: Bush et al. 1998 (three items scored 0–4, total 0–12); cut-offs of Bradley et al. 2007:
 * positive screen at ≥ 4 for men and ≥ 3 for women. Where sex is not recorded we use 3, the more sensitive.
 */

export const IPAQ_MET = { walking: 3.3, moderate: 4.0, vigorous: 8.0 } as const;
const MIN_BOUT_MINUTES = 10;
const MAX_DAILY_MINUTES = 180;
const MAX_TOTAL_DAILY_MINUTES = 960;

export type IpaqInput = {
  vigorousDays: number;
  vigorousMinutes: number;
  moderateDays: number;
  moderateMinutes: number;
  walkingDays: number;
  walkingMinutes: number;
};

export type IpaqCategory = 'low' | 'moderate' | 'high';

export type IpaqScore =
  | { valid: false; reason: string }
  | {
      valid: true;
      metMinutes: { walking: number; moderate: number; vigorous: number; total: number };
      category: IpaqCategory;
    };

/** Minutes per day after the protocol's cleaning: under 10 → 0, over 180 → 180. */
function cleanMinutes(days: number, minutes: number): number {
  if (days === 0 || minutes < MIN_BOUT_MINUTES) return 0;
  return Math.min(minutes, MAX_DAILY_MINUTES);
}

export function scoreIpaq(input: IpaqInput): IpaqScore {
  for (const [name, days] of [
    ['vigorousDays', input.vigorousDays],
    ['moderateDays', input.moderateDays],
    ['walkingDays', input.walkingDays],
  ] as const) {
    if (!Number.isInteger(days) || days < 0 || days > 7) return { valid: false, reason: `${name} must be a whole number from 0 to 7` };
  }
  // Excluded before truncation, on the reported times (protocol §7.2).
  const reportedTotal =
    (input.vigorousDays > 0 ? input.vigorousMinutes : 0) +
    (input.moderateDays > 0 ? input.moderateMinutes : 0) +
    (input.walkingDays > 0 ? input.walkingMinutes : 0);
  if (reportedTotal > MAX_TOTAL_DAILY_MINUTES) return { valid: false, reason: 'more than 960 minutes of activity a day reported' };

  const vigorousMinutes = cleanMinutes(input.vigorousDays, input.vigorousMinutes);
  const moderateMinutes = cleanMinutes(input.moderateDays, input.moderateMinutes);
  const walkingMinutes = cleanMinutes(input.walkingDays, input.walkingMinutes);
  // A bout set to 0 leaves no day of that activity.
  const vigorousDays = vigorousMinutes === 0 ? 0 : input.vigorousDays;
  const moderateDays = moderateMinutes === 0 ? 0 : input.moderateDays;
  const walkingDays = walkingMinutes === 0 ? 0 : input.walkingDays;

  const walking = IPAQ_MET.walking * walkingMinutes * walkingDays;
  const moderate = IPAQ_MET.moderate * moderateMinutes * moderateDays;
  const vigorous = IPAQ_MET.vigorous * vigorousMinutes * vigorousDays;
  const total = walking + moderate + vigorous;
  const activeDays = walkingDays + moderateDays + vigorousDays;

  let category: IpaqCategory = 'low';
  if ((vigorousDays >= 3 && total >= 1500) || (activeDays >= 7 && total >= 3000)) category = 'high';
  else if (
    (vigorousDays >= 3 && vigorousMinutes >= 20) ||
    (moderateMinutes >= 30 ? moderateDays : 0) + (walkingMinutes >= 30 ? walkingDays : 0) >= 5 ||
    (activeDays >= 5 && total >= 600)
  )
    category = 'moderate';
  return { valid: true, metMinutes: { walking, moderate, vigorous, total }, category };
}

export type AuditCScore = { score: number; cutOff: number; positive: boolean };

/** Each item 0–4 (how often, how many drinks, how often six or more); positive at ≥ 4 (men) or ≥ 3 (women, unknown). */
export function scoreAuditC(items: readonly [number, number, number], sex: 'female' | 'male' | null): AuditCScore {
  for (const item of items)
    if (!Number.isInteger(item) || item < 0 || item > 4) throw new RangeError(`AUDIT-C items are scored 0–4, got ${item}`);
  const score = items[0] + items[1] + items[2];
  const cutOff = sex === 'male' ? 4 : 3;
  return { score, cutOff, positive: score >= cutOff };
}
