import 'server-only';
import { and, asc, count, desc, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope, type CohortScope } from '@/db/queries/cohort-scope';
import { repliedToSql, repliesToSql } from '@/db/queries/message-replies';
import { seesSuppressedAggregates } from '@/db/queries/suppression';
import { messages, patients, policyDecisions, policyStates } from '@/db/schema';
import { type ShownCount, suppressCount } from '@/engine/aggregation/small-cell-suppression';
import { armCount, messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { personalisedPolicyName } from '@/engine/policy/personalised';
import { AppError } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { SessionUser } from '@/lib/server/session';
import {
  type FlowEdge,
  flowPeriodDays,
  type MessageFlowResult,
  type PolicyVersionDto,
  type TracedDecision,
  type TracedProbability,
} from '../schemas';

/** The learning policy's name in policy_decisions and policy_states (the programme of the same name). */
const personalisedPolicy = personalisedPolicyName;
const dayMs = 86_400_000;

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;
const iso = (value: string | Date) => new Date(value).toISOString();

/**
 * The personalised message flow page (docs/decisions/025-message-flow-page.md): for the live decision log of
 * the last 28 days, how many patients, decisions, messages, replies, rewards and posterior updates passed
 * each step of the learning policy's pipeline, and the latest decision traced end to end. Who is counted is
 * the shared read layer's rule (`findCohortScope`); viewers whose aggregates are suppressed get every count
 * through small-cell suppression and see a traced decision only of a synthetic (demo) patient, since one
 * real patient's day is individual data that only the care team ('patients:list') may see.
 */
export async function getMessageFlow(options: { database: Database; actor: SessionUser | null; now: Date }): Promise<MessageFlowResult> {
  const { database, actor, now } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const conditions = cohortConditions(database, scope);
  const suppressed = seesSuppressedAggregates(actor.role);
  const mayTraceAnyone = hasPermission(actor.role, 'patients:list');
  const periodStart = new Date(now.getTime() - flowPeriodDays * dayMs);
  const shown = (value: number): ShownCount => (suppressed ? suppressCount(value) : suppressCount(value, 0));

  const [versions, latestVersion] = await Promise.all([
    countVersionsSince({ database, from: periodStart, to: now }),
    findLatestVersion(database),
  ]);
  // A scope that holds nobody (a clinician without an organisation): nothing to count, and no query runs.
  const figures =
    conditions === null
      ? emptyFigures
      : await countFlow({
          database,
          inScope: conditions.patients,
          from: periodStart,
          to: now,
          trainedThrough: latestVersion?.trainedThrough ?? null,
        });

  const edges: FlowEdge[] = [
    edge('patient-data', 'context', 'patients decided for', 'patients', shown(figures.patientsDecided)),
    edge('context', 'posterior', 'decisions made (one context each)', 'decisions', shown(figures.decisions)),
    edge('posterior', 'probabilities', 'decisions with every action’s probability logged', 'logged', shown(figures.withProbabilities)),
    edge('probabilities', 'choice', 'choices of a message (the rest chose no message)', 'chose a message', shown(figures.messagesChosen)),
    edge('choice', 'message', 'messages sent', 'sent', shown(figures.messagesSent)),
    edge('message', 'reply', 'messages replied to', 'replied', shown(figures.replied)),
    edge('reply', 'reward', 'decisions rewarded (doses confirmed that day)', 'rewarded', shown(figures.rewarded)),
    edge('reward', 'update', 'rewarded decisions learned from', 'learned from', shown(figures.learnedFrom)),
    // Versions are about the model, not about patients: not a count of people, never suppressed.
    edge('update', 'posterior', 'posterior versions stored', 'new versions', suppressCount(versions, 0)),
  ];

  const trace =
    conditions === null
      ? ({ status: 'none-yet' } as const)
      : await traceLatestDecision({ database, inScope: conditions.patients, syntheticOnly: !mayTraceAnyone });

  return {
    status: 'ok',
    periodStart: periodStart.toISOString(),
    periodEnd: now.toISOString(),
    periodDays: flowPeriodDays,
    scope: scopeKind(scope),
    suppressed,
    enrolled: shown(conditions === null ? 0 : await countEnrolled({ database, inScope: conditions.patients })),
    patientsDecided: shown(figures.patientsDecided),
    edges,
    latestVersion,
    versionsInPeriod: versions,
    trace,
  };
}

function scopeKind(scope: Exclude<CohortScope, { kind: 'no-company' }>): 'organisation' | 'companies' | 'all' {
  return scope.kind;
}

function edge(from: FlowEdge['from'], to: FlowEdge['to'], what: string, short: string, value: ShownCount): FlowEdge {
  return { id: `${from}-${to}`, from, to, what, short, count: value };
}

type FlowFigures = {
  patientsDecided: number;
  decisions: number;
  withProbabilities: number;
  messagesChosen: number;
  messagesSent: number;
  replied: number;
  rewarded: number;
  learnedFrom: number;
};

const emptyFigures: FlowFigures = {
  patientsDecided: 0,
  decisions: 0,
  withProbabilities: 0,
  messagesChosen: 0,
  messagesSent: 0,
  replied: 0,
  rewarded: 0,
  learnedFrom: 0,
};

/** Live decisions of the learning policy in the period, of the scope's patients. */
function liveDecisionsIn(options: { inScope: SQL | undefined; from: Date; to: Date }): SQL {
  return and(
    eq(policyDecisions.source, 'live'),
    eq(policyDecisions.policyName, personalisedPolicy),
    gte(policyDecisions.decidedAt, options.from),
    lt(policyDecisions.decidedAt, options.to),
    options.inScope,
  )!;
}

async function countFlow(options: {
  database: Database;
  inScope: SQL | undefined;
  from: Date;
  to: Date;
  trainedThrough: string | null;
}): Promise<FlowFigures> {
  const { database, trainedThrough } = options;
  const where = liveDecisionsIn(options);
  // A message counts as replied to by the shared reply rule (src/db/queries/message-replies.ts).
  const repliedTo = repliedToSql(messages);
  const [[decided], [sent]] = await Promise.all([
    database
      .select({
        patientsDecided: sql<number>`count(distinct ${policyDecisions.patientId})::int`,
        decisions: sql<number>`count(*)::int`,
        withProbabilities: sql<number>`(count(*) filter (where ${policyDecisions.armProbabilities} is not null))::int`,
        messagesChosen: sql<number>`(count(*) filter (where ${policyDecisions.action} = 'message'))::int`,
        rewarded: sql<number>`(count(*) filter (where ${policyDecisions.reward} is not null))::int`,
        learnedFrom:
          trainedThrough === null
            ? sql<number>`0`
            : sql<number>`(count(*) filter (where ${policyDecisions.reward} is not null and ${policyDecisions.decidedAt} <= ${trainedThrough}::timestamptz))::int`,
      })
      .from(policyDecisions)
      .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
      .where(where),
    // A WhatsApp message and its SMS fallback carry out one decision: decisions are counted, not rows.
    database
      .select({
        messagesSent: sql<number>`count(distinct ${messages.policyDecisionId})::int`,
        replied: sql<number>`(count(distinct ${messages.policyDecisionId}) filter (where ${repliedTo}))::int`,
      })
      .from(policyDecisions)
      .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
      .innerJoin(messages, and(eq(messages.policyDecisionId, policyDecisions.id), eq(messages.direction, 'outbound')))
      .where(where),
  ]);
  return {
    patientsDecided: Number(decided?.patientsDecided ?? 0),
    decisions: Number(decided?.decisions ?? 0),
    withProbabilities: Number(decided?.withProbabilities ?? 0),
    messagesChosen: Number(decided?.messagesChosen ?? 0),
    messagesSent: Number(sent?.messagesSent ?? 0),
    replied: Number(sent?.replied ?? 0),
    rewarded: Number(decided?.rewarded ?? 0),
    learnedFrom: Number(decided?.learnedFrom ?? 0),
  };
}

async function countEnrolled(options: { database: Database; inScope: SQL | undefined }): Promise<number> {
  const [row] = await options.database
    .select({ patients: count() })
    .from(patients)
    .where(and(eq(patients.messagingProgramme, personalisedPolicy), options.inScope));
  return Number(row?.patients ?? 0);
}

async function countVersionsSince(options: { database: Database; from: Date; to: Date }): Promise<number> {
  const [row] = await options.database
    .select({ versions: count() })
    .from(policyStates)
    .where(
      and(
        eq(policyStates.policyName, personalisedPolicy),
        eq(policyStates.source, 'live'),
        gte(policyStates.createdAt, options.from),
        lt(policyStates.createdAt, options.to),
      ),
    );
  return Number(row?.versions ?? 0);
}

const versionColumns = {
  version: policyStates.version,
  createdAt: policyStates.createdAt,
  decisionsUsed: policyStates.decisionsUsed,
  trainedThrough: policyStates.trainedThrough,
};

function versionDto(row: { version: string; createdAt: Date; decisionsUsed: number; trainedThrough: Date | null }): PolicyVersionDto {
  return {
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    decisionsUsed: row.decisionsUsed,
    trainedThrough: row.trainedThrough === null ? null : row.trainedThrough.toISOString(),
  };
}

/** The posterior the live loop decides with: the latest live version stored. */
async function findLatestVersion(database: Database): Promise<PolicyVersionDto | null> {
  const [row] = await database
    .select(versionColumns)
    .from(policyStates)
    .where(and(eq(policyStates.policyName, personalisedPolicy), eq(policyStates.source, 'live')))
    .orderBy(desc(policyStates.createdAt), desc(policyStates.id))
    .limit(1);
  return row === undefined ? null : versionDto(row);
}

/** Action 0 is no message; action 1 + armIndex(category, framing) that arm (engine/policy/message-arms.ts). */
function actionLabel(action: number): string {
  if (action === 0) return 'No message';
  const arm = action - 1;
  const category = messageCategories[Math.floor(arm / messageFramings.length)];
  const framing = messageFramings[arm % messageFramings.length];
  return category === undefined || framing === undefined ? `Action ${action}` : `${category} · ${framing}`;
}

/** The context as named values, nested keys joined with dots; the patient's internal id is not shown. */
function flattenContext(value: unknown, prefix = ''): { name: string; value: string }[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const text = Array.isArray(value)
      ? value.length === 0
        ? 'none'
        : value.map(String).join(', ')
      : value === null
        ? 'not known'
        : String(value);
    return [{ name: prefix, value: text }];
  }
  return Object.entries(value as Record<string, unknown>)
    .filter(([key]) => key !== 'patientId')
    .flatMap(([key, inner]) => flattenContext(inner, prefix === '' ? key : `${prefix}.${key}`));
}

async function traceLatestDecision(options: {
  database: Database;
  inScope: SQL | undefined;
  syntheticOnly: boolean;
}): Promise<{ status: 'traced'; decision: TracedDecision } | { status: 'none-yet' } | { status: 'not-shown' }> {
  const { database } = options;
  const liveOfScope = and(eq(policyDecisions.source, 'live'), eq(policyDecisions.policyName, personalisedPolicy), options.inScope);
  const [decision] = await database
    .select({
      id: policyDecisions.id,
      pseudonym: patients.pseudonym,
      synthetic: patients.synthetic,
      localDate: sql<string>`${policyDecisions.localDate}::text`,
      decidedAt: policyDecisions.decidedAt,
      policyVersion: policyDecisions.policyVersion,
      context: policyDecisions.context,
      action: policyDecisions.action,
      category: policyDecisions.category,
      framing: policyDecisions.framing,
      propensity: policyDecisions.propensity,
      armProbabilities: policyDecisions.armProbabilities,
      status: policyDecisions.status,
      statusReason: policyDecisions.statusReason,
      reward: policyDecisions.reward,
      rewardedAt: policyDecisions.rewardedAt,
    })
    .from(policyDecisions)
    .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
    .where(and(liveOfScope, options.syntheticOnly ? eq(patients.synthetic, true) : undefined))
    .orderBy(desc(policyDecisions.decidedAt), desc(policyDecisions.id))
    .limit(1);
  if (decision === undefined) {
    if (!options.syntheticOnly) return { status: 'none-yet' };
    // Decisions of real patients only: say they exist without showing one.
    const [any] = await database
      .select({ id: policyDecisions.id })
      .from(policyDecisions)
      .innerJoin(patients, eq(patients.id, policyDecisions.patientId))
      .where(liveOfScope)
      .limit(1);
    return any === undefined ? { status: 'none-yet' } : { status: 'not-shown' };
  }

  const [message] = await database
    .select({
      patientId: messages.patientId,
      channel: messages.channel,
      templateId: messages.templateId,
      templateLanguage: messages.templateLanguage,
      templateVersion: messages.templateVersion,
      body: messages.body,
      status: messages.status,
      sentAt: messages.sentAt,
      providerMessageId: messages.providerMessageId,
    })
    .from(messages)
    .where(and(eq(messages.policyDecisionId, decision.id), eq(messages.direction, 'outbound')))
    // The message that went first (WhatsApp) rather than its SMS fallback.
    .orderBy(asc(messages.sentAt))
    .limit(1);
  const reply = message === undefined ? undefined : await findReply({ database, message });
  const [learnedIn] = await database
    .select({ version: policyStates.version })
    .from(policyStates)
    .where(
      and(
        eq(policyStates.policyName, personalisedPolicy),
        eq(policyStates.source, 'live'),
        isNotNull(policyStates.trainedThrough),
        gte(policyStates.trainedThrough, decision.decidedAt),
      ),
    )
    .orderBy(asc(policyStates.createdAt), asc(policyStates.id))
    .limit(1);

  const chosenAction =
    decision.action === 'message' && decision.category !== null && decision.framing !== null
      ? 1 +
        messageCategories.indexOf(decision.category as (typeof messageCategories)[number]) * messageFramings.length +
        messageFramings.indexOf(decision.framing as (typeof messageFramings)[number])
      : 0;
  const logged = decision.armProbabilities;
  const probabilities: TracedProbability[] | null =
    Array.isArray(logged) && logged.length === armCount + 1
      ? logged.map((probability, action) => ({ action, label: actionLabel(action), probability, chosen: action === chosenAction }))
      : null;
  return {
    status: 'traced',
    decision: {
      pseudonym: decision.pseudonym,
      synthetic: decision.synthetic,
      localDate: decision.localDate,
      decidedAt: decision.decidedAt.toISOString(),
      policyVersion: decision.policyVersion,
      context: flattenContext(decision.context),
      probabilities,
      choice: { label: actionLabel(chosenAction), propensity: decision.propensity },
      status: decision.status,
      statusReason: decision.statusReason,
      message:
        message === undefined
          ? null
          : {
              channel: message.channel,
              templateId: message.templateId,
              templateLanguage: message.templateLanguage,
              templateVersion: message.templateVersion,
              body: message.body,
              status: message.status,
              sentAt: message.sentAt.toISOString(),
            },
      reply: reply ?? null,
      reward: decision.reward,
      rewardedAt: decision.rewardedAt === null ? null : decision.rewardedAt.toISOString(),
      learnedIn: learnedIn?.version ?? null,
    },
  };
}

/** The first reply to a message, by the same rule the counts use. */
async function findReply(options: {
  database: Database;
  message: { patientId: string; channel: string; sentAt: Date; providerMessageId: string | null };
}): Promise<TracedDecision['reply'] | undefined> {
  const { database, message } = options;
  const sentAt = message.sentAt.toISOString();
  const [row] = rowsOf<{ channel: string; sent_at: string | Date; body: string | null; reading: TracedReading | null }>(
    await database.execute(
      sql`${repliesToSql(
        {
          patientId: message.patientId,
          channel: message.channel,
          sentAt: sql`${sentAt}::timestamptz`,
          providerMessageId: message.providerMessageId,
        },
        sql`inbound.channel, inbound.sent_at, inbound.body, inbound.inbound_reading as reading`,
      )} limit 1`,
    ),
  );
  if (row === undefined) return undefined;
  return { channel: row.channel, receivedAt: iso(row.sent_at), text: row.body, reading: readingLabel(row.reading) };
}

type TracedReading = {
  interpretation:
    { kind: 'keyword'; keyword: { keyword: string } } | { kind: 'reply'; reply: { intent: string; reason?: string | null } } | null;
};

function readingLabel(reading: TracedReading | null): string | null {
  const interpretation = reading?.interpretation ?? null;
  if (interpretation === null) return null;
  if (interpretation.kind === 'keyword') return `keyword ${interpretation.keyword.keyword}`;
  const { intent, reason } = interpretation.reply;
  return reason === undefined || reason === null ? intent : `${intent} (${reason})`;
}
