import 'server-only';
/**
 * Rewards of live decisions whose local day is over: the engine's observed reward (observedReward, the same
 * function the simulator's policies learn from) of what the product saw that local day — doses scheduled and
 * confirmed taken, a reply, whether the patient's latest reminders consent is an opt-out, and how their doses
 * are confirmed (the decision's context). Null when no dose was scheduled (no adherence to observe). rewarded_at is
 * set so the day is not read again. Set-based: one read of decisions, one of the day's observations and one
 * update per batch.
 */
import { and, asc, eq, gt, gte, inArray, isNull, lte, param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { firstInstantAtLocalTime } from '@/engine/messaging/local-clock';
import { observedReward } from '@/engine/policy/personalised';
import { patients, policyDecisions } from '@/db/schema';
import type { DoseObserver } from '@/engine/simulation/records';
import { decisionRewardWindowDays, messagingProgrammes } from '@/lib/domain/messaging-programmes';

const doseObservers: readonly string[] = ['app', 'whatsapp', 'smart-bottle'] satisfies DoseObserver[];

const defaultBatchSize = 1000;

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
        // As the policy saw it when deciding (the loop always records it).
        doseObserver: sql<string | null>`${policyDecisions.context} -> 'features' ->> 'doseObserver'`,
      })
      .from(policyDecisions)
      .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
      .where(
        and(
          eq(policyDecisions.source, 'live'),
          // Bounded by the (policy name, decided at) index: only the last week's decisions are looked at, so the
          // hourly tick never scans the whole history for the few unrewarded rows.
          inArray(policyDecisions.policyName, [...messagingProgrammes]),
          gte(policyDecisions.decidedAt, new Date(now.getTime() - decisionRewardWindowDays * 86_400_000)),
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
    // A context without a known observer gets the loop's own default ('app': confirmations not tied to messages).
    const observerOf = new Map(
      batch.map((decision) => [
        decision.id,
        (doseObservers.includes(decision.doseObserver ?? '') ? decision.doseObserver : 'app') as DoseObserver,
      ]),
    );
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
    // Each ended day's observations in one statement; the rewards computed here and written in one more.
    const observed = (
      (await database.execute(sql`
        with days (id, patient_id, day_start, day_end) as (values ${days})
        select days.id,
          (select count(*) from dose_events
            where dose_events.patient_id = days.patient_id
              and dose_events.scheduled_at >= days.day_start and dose_events.scheduled_at < days.day_end)::int as scheduled,
          (select count(*) from dose_events
            where dose_events.patient_id = days.patient_id and dose_events.status = 'taken'
              and dose_events.scheduled_at >= days.day_start and dose_events.scheduled_at < days.day_end)::int as confirmed,
          exists (select 1 from messages
            where messages.patient_id = days.patient_id and messages.direction = 'inbound'
              and messages.sent_at >= days.day_start and messages.sent_at < days.day_end) as replied,
          coalesce((select not consent_events.granted from consent_events
            where consent_events.patient_id = days.patient_id and consent_events.purpose = 'reminders'
              and consent_events.effective_at < days.day_end
            order by consent_events.effective_at desc, consent_events.id desc limit 1), false) as opted_out
        from days`)) as unknown as {
        rows: { id: string; scheduled: number; confirmed: number; replied: boolean; opted_out: boolean }[];
      }
    ).rows;
    const rewards = observed.map((day) => ({
      id: day.id,
      reward:
        Number(day.scheduled) === 0
          ? null
          : observedReward({
              dosesScheduled: Number(day.scheduled),
              dosesConfirmed: Number(day.confirmed),
              replied: day.replied,
              optedOut: day.opted_out,
              doseObserver: observerOf.get(day.id)!,
            }),
    }));
    const updated = await database.execute(sql`
      update policy_decisions
      set reward = rewards.reward, rewarded_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${param(JSON.stringify(rewards))}::jsonb) as rewards (id uuid, reward double precision)
      where policy_decisions.id = rewards.id and policy_decisions.rewarded_at is null
      returning policy_decisions.id`);
    rewarded += (updated as unknown as { rows: unknown[] }).rows.length;
  }
  return { rewarded };
}
