import 'server-only';
/**
 * Rewards of live decisions whose local day is over: the share of that day's scheduled doses that were
 * confirmed taken (null when none was scheduled: nothing to learn from), with rewarded_at set so the day is
 * not read again. Set-based: one read of decisions, one of dose events and one update per batch.
 */
import { and, asc, eq, gt, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { firstInstantAtLocalTime } from '@/engine/messaging/local-clock';
import { patients, policyDecisions } from '@/db/schema';
import { policyNames } from '@/engine/simulation/policies/policy-registry';

const defaultBatchSize = 1000;
/** A day is rewarded at the first tick after it ends; a week leaves room for a long outage. */
const rewardWindowDays = 7;

export async function fillDecisionRewards(options: { database: Database; now: Date; batchSize?: number }): Promise<{ rewarded: number }> {
  const { database, now } = options;
  const batchSize = options.batchSize ?? defaultBatchSize;
  // No zone's day ends before UTC's day has begun (UTC+14 is the earliest): later dates cannot be over.
  const latestDate = now.toISOString().slice(0, 10);
  let rewarded = 0;
  let afterId: string | null = null;
  for (;;) {
    const batch = await database
      .select({
        id: policyDecisions.id,
        patientId: policyDecisions.patientId,
        localDate: sql<string>`${policyDecisions.localDate}::text`,
        timeZone: patients.timezone,
      })
      .from(policyDecisions)
      .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
      .where(
        and(
          eq(policyDecisions.source, 'live'),
          // Bounded by the (policy name, decided at) index: only the last week's decisions are looked at, so the
          // hourly tick never scans the whole history for the few unrewarded rows.
          inArray(policyDecisions.policyName, [...policyNames]),
          gte(policyDecisions.decidedAt, new Date(now.getTime() - rewardWindowDays * 86_400_000)),
          isNull(policyDecisions.rewardedAt),
          lte(policyDecisions.localDate, latestDate),
          afterId === null ? undefined : gt(policyDecisions.id, afterId),
        ),
      )
      .orderBy(asc(policyDecisions.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    const ended: { id: string; patientId: string; start: Date; end: Date }[] = [];
    for (const decision of batch) {
      const day = dayNumberFromIso(decision.localDate);
      const timeZone = decision.timeZone ?? 'UTC';
      try {
        const end = firstInstantAtLocalTime(timeZone, day + 1, 0);
        if (end <= now.getTime())
          ended.push({
            id: decision.id,
            patientId: decision.patientId,
            start: new Date(firstInstantAtLocalTime(timeZone, day, 0)),
            end: new Date(end),
          });
      } catch {
        // A zone the runtime does not know: the planner skipped such patients too.
      }
    }
    if (ended.length === 0) continue;
    const days = sql.join(
      ended.map(
        (day) =>
          sql`(${day.id}::uuid, ${day.patientId}::uuid, ${day.start.toISOString()}::timestamptz, ${day.end.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    // One statement: each ended day's doses counted and its reward written (null when none was scheduled).
    const updated = await database.execute(sql`
      with days (id, patient_id, day_start, day_end) as (values ${days}),
      counts as (
        select days.id,
               count(dose_events.id)::float8 as scheduled,
               (count(dose_events.id) filter (where dose_events.status = 'taken'))::float8 as taken
        from days
        left join dose_events on dose_events.patient_id = days.patient_id
          and dose_events.scheduled_at >= days.day_start and dose_events.scheduled_at < days.day_end
        group by days.id
      )
      update policy_decisions
      set reward = case when counts.scheduled = 0 then null else counts.taken / counts.scheduled end,
          rewarded_at = ${now.toISOString()}::timestamptz
      from counts
      where policy_decisions.id = counts.id and policy_decisions.rewarded_at is null
      returning policy_decisions.id`);
    rewarded += (updated as unknown as { rows: unknown[] }).rows.length;
  }
  return { rewarded };
}
