import 'server-only';
/**
 * The daily loop (docs/decisions/018-daily-loop.md): for every enrolled patient whose local day has reached
 * the planning time and who has no live decision for that local date yet, asks the programme's policy for
 * the day's decision, logs it in policy_decisions and, for a message, queues 'message-send' due at the
 * planned instant. The unique (patient, source, local date) key makes it idempotent: a second run, or two
 * instances at once, never make a second decision or a second send job.
 */
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { localClockAt, type LocalClock } from '@/engine/messaging/local-clock';
import type { MessagingPolicy, PatientFeatures, SurveyPersona } from '@/engine/policy/contract';
import { messageChannels, type MessageChannel } from '@/engine/policy/message-arms';
import { planPatientDay, type PlannedPatientDay } from '@/engine/policy/plan-patient-day';
import { conditions as knownConditions, type Condition } from '@/engine/simulation/conditions';
import { ageBands, personas, type AgeBand, type Persona } from '@/engine/simulation/personas';
import { createPolicy, isPolicyName } from '@/engine/simulation/policies/policy-registry';
import { personalisedPolicyName } from '@/engine/policy/personalised';
import { loadPersonalisedPolicy } from '@/features/policy-learning';
import { and, eq, inArray, param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { enqueueJobs } from '@/lib/server/jobs';
import {
  type EnrolledPatientRow,
  type PatientHistory,
  readEnrolledPatients,
  readLiveDecisions,
  readPatientHistories,
} from './read-planning-inputs';
import { messageSendJobKind } from '@/lib/messaging-job-kinds';

/** Local time from which a day is planned: after midnight's late replies, hours before quiet hours end. */
export const defaultPlanningMinute = 4 * 60;
const defaultBatchSize = 1000;
const dayMs = 86_400_000;

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

// The contract needs every feature; a record that lacks one gets these, and the decision lists which.
const fallbackPersona: Persona = 'newly-diagnosed';
const fallbackAgeBand: AgeBand = '45-54';
const fallbackFirstDoseMinute = 8 * 60;

export type PlanMessagingDayResult = {
  /** Enrolled patients looked at. */
  patients: number;
  decisions: number;
  messagesPlanned: number;
  jobsEnqueued: number;
  /** Already decided for their local date (an earlier run). */
  alreadyPlanned: number;
  /** Their local day has not reached the planning time. */
  notYetDue: number;
  /** Their record names a time zone the runtime does not know. */
  unknownTimeZone: number;
};

function minuteOfTime(time: string | null): number | null {
  const match = time === null ? null : /^(\d{1,2}):(\d{2})/.exec(time);
  if (match === null) return null;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute < 1440 ? minute : null;
}

/** The stored survey posterior as the policy sees it; a row naming other personas (an older persona list) is ignored. */
function surveyPersonaOf(patient: EnrolledPatientRow): SurveyPersona | null {
  const stored = patient.surveyPosterior;
  if (stored === null || patient.surveyAnswers === null || patient.surveyUpdatedAt === null) return null;
  if (!personas.every((persona) => typeof stored[persona] === 'number')) return null;
  return {
    posterior: Object.fromEntries(personas.map((persona) => [persona, stored[persona]!])) as Record<Persona, number>,
    answers: patient.surveyAnswers,
    updatedAt: patient.surveyUpdatedAt.toISOString(),
  };
}

function featuresOf(
  patient: EnrolledPatientRow,
  history: PatientHistory,
): { persona: Persona; features: PatientFeatures; missing: string[] } {
  const missing: string[] = [];
  const persona = (personas as readonly string[]).includes(patient.persona ?? '')
    ? (patient.persona as Persona)
    : (missing.push('persona'), fallbackPersona);
  const ageBand = (ageBands as readonly string[]).includes(patient.ageBand ?? '')
    ? (patient.ageBand as AgeBand)
    : (missing.push('ageBand'), fallbackAgeBand);
  const sex = patient.sex === 'female' || patient.sex === 'male' ? patient.sex : (missing.push('sex'), 'female' as const);
  const preferredChannel = (messageChannels as readonly string[]).includes(patient.preferredChannel ?? '')
    ? (patient.preferredChannel as MessageChannel)
    : (missing.push('preferredChannel'), 'whatsapp' as const);
  const productCount = Math.max(history.activeRegimens, history.supplyEnds.length);
  return {
    persona,
    missing,
    features: {
      ageBand,
      sex,
      conditions: patient.conditions.filter((condition): condition is Condition =>
        (knownConditions as readonly string[]).includes(condition),
      ),
      productCount,
      preferredChannel,
      doseObserver: history.observedBySmartBottle ? 'smart-bottle' : history.observedByReply ? 'whatsapp' : 'app',
    },
  };
}

export async function planMessagingDay(options: {
  database: Database;
  now: Date;
  patientIds?: readonly string[];
  /** Development only: send at `now`, ignoring the chosen minute, quiet hours and the planning time. */
  devSendNow?: boolean;
  planningMinute?: number;
  batchSize?: number;
}): Promise<PlanMessagingDayResult> {
  const { database, now } = options;
  const planningMinute = options.planningMinute ?? defaultPlanningMinute;
  const batchSize = options.batchSize ?? defaultBatchSize;
  const devSendNow = options.devSendNow === true;
  const result: PlanMessagingDayResult = {
    patients: 0,
    decisions: 0,
    messagesPlanned: 0,
    jobsEnqueued: 0,
    alreadyPlanned: 0,
    notYetDue: 0,
    unknownTimeZone: 0,
  };
  if (options.patientIds !== undefined && options.patientIds.length === 0) return result;
  // Every patient of a zone has the same local clock at `now`; null: a zone the runtime does not know.
  const clocks = new Map<string, LocalClock | null>();
  const clockIn = (timeZone: string): LocalClock | null => {
    if (!clocks.has(timeZone)) {
      try {
        clocks.set(timeZone, localClockAt(now.getTime(), timeZone));
      } catch {
        clocks.set(timeZone, null);
      }
    }
    return clocks.get(timeZone)!;
  };
  // At most one batch's write in flight while the next batch is read (two connections of the pool busy).
  let writing: Promise<void> = Promise.resolve();
  let afterId: string | null = null;
  let personalised: MessagingPolicy | null = null;
  const alreadyDecided: { patientId: string; localDate: string }[] = [];
  for (;;) {
    const batch = await readEnrolledPatients({ database, afterId, limit: batchSize, patientIds: options.patientIds });
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    result.patients += batch.length;

    const decided = await readLiveDecisions({ database, patientIds: batch.map((patient) => patient.id), now });
    const due: { patient: EnrolledPatientRow; timeZone: string }[] = [];
    for (const patient of batch) {
      const timeZone = patient.timeZone ?? 'UTC';
      const clock = clockIn(timeZone);
      if (clock === null) {
        result.unknownTimeZone += 1;
        continue;
      }
      if (!devSendNow && clock.minute < planningMinute) result.notYetDue += 1;
      else if (decided.get(patient.id)?.recentDates.includes(new Date(clock.day * dayMs).toISOString().slice(0, 10))) {
        result.alreadyPlanned += 1;
        if (devSendNow) alreadyDecided.push({ patientId: patient.id, localDate: new Date(clock.day * dayMs).toISOString().slice(0, 10) });
      } else due.push({ patient, timeZone });
    }
    if (due.length === 0) continue;

    const histories = await readPatientHistories({ database, patientIds: due.map(({ patient }) => patient.id), now });
    // The learning policy decides from its latest stored version (read once a run: a nightly update that lands
    // mid-run takes effect at the next tick), not from the fresh prior the simulator's registry would make.
    if (personalised === null && due.some(({ patient }) => patient.programme === personalisedPolicyName))
      personalised = await loadPersonalisedPolicy({ database, now });
    const plans: { patientId: string; plan: PlannedPatientDay }[] = [];
    for (const { patient, timeZone } of due) {
      const policy =
        patient.programme === personalisedPolicyName
          ? personalised
          : isPolicyName(patient.programme)
            ? createPolicy(patient.programme)
            : null;
      if (policy === null) continue;
      const history = histories.get(patient.id)!;
      const live = decided.get(patient.id);
      const { persona, features, missing } = featuresOf(patient, history);
      const clockDay = clockIn(timeZone)!.day;
      const supplyLeft = history.supplyEnds.map((end) => dayNumberFromIso(end) - clockDay);
      const firstDoseMinute = minuteOfTime(history.firstDoseTime);
      if (firstDoseMinute === null) missing.push('firstDoseMinute');
      plans.push({
        patientId: patient.id,
        plan: planPatientDay({
          patientId: patient.id,
          persona,
          surveyPersona: surveyPersonaOf(patient),
          features,
          timeZone,
          now: now.getTime(),
          programmeStartDay: live === undefined ? null : dayNumberFromIso(live.firstDate),
          firstDoseMinute: firstDoseMinute ?? fallbackFirstDoseMinute,
          recentHistory: {
            dosesScheduledLast7Days: history.dosesScheduled7,
            dosesConfirmedLast7Days: history.dosesConfirmed7,
            daysSinceLastReply: history.lastReplyAt === null ? null : Math.floor((now.getTime() - history.lastReplyAt) / dayMs),
            // No fill on record: nothing is known to be left.
            estimatedDaysOfSupplyLeft: supplyLeft.length === 0 ? 0 : Math.max(0, Math.min(...supplyLeft)),
          },
          messageCounts: {
            last7Days: history.outbound7,
            last28Days: history.outbound28,
            total: history.outboundTotal,
            repliesLast28Days: history.replies28,
          },
          recentSendTimes: [...(live?.sendTimes ?? []), ...history.otherSendTimes],
          policy,
          devSendNow,
          missingFeatures: missing,
        }),
      });
    }
    if (plans.length === 0) continue;

    // Decisions and their send jobs commit together: no decision is ever left without its job.
    await writing;
    writing = database.transaction(async (transaction) => {
      // The batch as one JSON document expanded by jsonb_to_recordset: one parameter, parsed once, and none of
      // drizzle's per-value SQL building (it took longer than PostgreSQL took to insert, as in the import writer).
      const rows = plans.map(({ patientId, plan }) => ({
        patient_id: patientId,
        local_date: plan.localDate,
        policy_name: plan.policyName,
        policy_version: plan.policyVersion,
        context: plan.context,
        action: plan.action,
        category: plan.arm?.category ?? null,
        framing: plan.arm?.framing ?? null,
        template_id: plan.templateId,
        minute_of_day: plan.minuteOfDay,
        propensity: plan.propensity,
        arm_probabilities: plan.armProbabilities,
        random_seed: plan.randomSeed,
        scheduled_for: plan.scheduledFor === null ? null : new Date(plan.scheduledFor).toISOString(),
        status: plan.status,
        status_reason: plan.statusReason,
      }));
      const inserted = rowsOf<{ id: string; status: string; scheduled_for: string | Date | null }>(
        await transaction.execute(sql`
          insert into policy_decisions (patient_id, source, local_date, decided_at, policy_name, policy_version, context, action,
            category, framing, template_id, minute_of_day, propensity, arm_probabilities, random_seed, scheduled_for, status,
            status_reason)
          select patient_id, 'live', local_date, ${now.toISOString()}::timestamptz, policy_name, policy_version, context, action,
            category, framing, template_id, minute_of_day, propensity, arm_probabilities, random_seed, scheduled_for, status,
            status_reason
          from jsonb_to_recordset(${param(JSON.stringify(rows))}::jsonb) as planned (patient_id uuid, local_date date,
            policy_name text, policy_version text, context jsonb, action text, category text, framing text, template_id text,
            minute_of_day integer, propensity double precision, arm_probabilities jsonb, random_seed text, scheduled_for timestamptz,
            status text, status_reason text)
          on conflict (patient_id, source, local_date) do nothing
          returning id, status, scheduled_for`),
      );
      result.decisions += inserted.length;
      result.alreadyPlanned += plans.length - inserted.length;
      const sends = inserted.filter((row) => row.status === 'planned' && row.scheduled_for !== null);
      result.messagesPlanned += sends.length;
      if (sends.length === 0) return;
      const enqueued = await enqueueJobs({
        database: transaction,
        jobs: sends.map((row) => ({
          kind: messageSendJobKind,
          payload: { decisionId: row.id },
          runAt: new Date(row.scheduled_for!),
          dedupeKey: `${messageSendJobKind}:${row.id}`,
        })),
      });
      result.jobsEnqueued += enqueued.filter((job) => job.created).length;
    });
    // Awaited before the next write or at the end; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
  }
  await writing;
  if (alreadyDecided.length > 0) result.messagesPlanned += await sendDecidedMessagesNow({ database, now, days: alreadyDecided });
  return result;
}

/**
 * devSendNow for a patient whose day is already decided (the hourly tick got there first, perhaps at a time
 * that gave the message up for quiet hours): a message decision not sent yet is due now instead, marked
 * devSendNow, and its send job made due now (or queued, when planning gave the message up). Development only;
 * still one decision per day, and a message already sent is never sent again.
 */
async function sendDecidedMessagesNow(options: {
  database: Database;
  now: Date;
  days: readonly { patientId: string; localDate: string }[];
}): Promise<number> {
  const { database, now } = options;
  return database.transaction(async (transaction) => {
    const moved = rowsOf<{ id: string }>(
      await transaction.execute(sql`
        update policy_decisions set scheduled_for = ${now.toISOString()}::timestamptz, status = 'planned', status_reason = null,
          context = context || '{"devSendNow": true}'::jsonb
        from unnest(${param(options.days.map((day) => day.patientId))}::uuid[], ${param(options.days.map((day) => day.localDate))}::date[])
          as days (patient_id, local_date)
        where policy_decisions.patient_id = days.patient_id and policy_decisions.local_date = days.local_date
          and policy_decisions.source = 'live' and policy_decisions.action = 'message'
          and (policy_decisions.status = 'planned'
            or (policy_decisions.status = 'not-sent' and policy_decisions.status_reason in ('quiet-hours', 'frequency-cap')))
        returning policy_decisions.id`),
    );
    if (moved.length === 0) return 0;
    const keys = moved.map((row) => `${messageSendJobKind}:${row.id}`);
    await transaction
      .update(jobs)
      .set({ runAt: now })
      .where(and(inArray(jobs.dedupeKey, keys), eq(jobs.status, 'queued')));
    await enqueueJobs({
      database: transaction,
      jobs: moved.map((row) => ({
        kind: messageSendJobKind,
        payload: { decisionId: row.id },
        runAt: now,
        dedupeKey: `${messageSendJobKind}:${row.id}`,
      })),
    });
    return moved.length;
  });
}
