import 'server-only';
import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { cohortConditions, findCohortScope, type Viewer } from '@/db/queries/cohort-scope';
import { findReportingPeriod, type PeriodChoice, type PeriodView, periodView } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE, seesSuppressedAggregates } from '@/db/queries/suppression';
import { messages, patients } from '@/db/schema';
import { MS_PER_DAY } from '@/engine/time/local-day';
import { personaNotAssigned } from '@/lib/domain/personas';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import type { PersonaTopTemplates } from '../schemas';

/** How many templates are listed per persona. */
export const topTemplatesPerPersona = 3;

export type TopTemplatesByPersona =
  | { status: 'no-company' }
  | {
      status: 'ok';
      period: PeriodView;
      scope: 'all' | 'organisation' | 'companies';
      suppressed: boolean;
      minimumGroupSize: number;
      /** Patients of the scope who received a template message in the period, and those messages; null when suppressed. */
      patients: number | null;
      messages: number | null;
      personas: PersonaTopTemplates[];
    };

/**
 * Which templates each persona's patients received most in the reporting period (the message store:
 * outbound messages with a template, simulated and live alike), within the viewer's cohort scope. For a
 * viewer whose aggregates are suppressed, a persona reached by fewer than the threshold's patients is not
 * shown, nor is a template fewer than that many patients received. Only counts leave this module.
 */
export async function findTopTemplatesByPersona(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  now: Date;
}): Promise<TopTemplatesByPersona> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') return { status: 'no-company' };
  const suppressed = seesSuppressedAggregates(actor.role);
  const period = await findReportingPeriod({ database, scope, choice: options.choice, now: options.now });
  const base = { status: 'ok' as const, period: periodView(period), scope: scope.kind, suppressed, minimumGroupSize: MINIMUM_GROUP_SIZE };
  const conditions = cohortConditions(database, scope);
  if (conditions === null) return { ...base, patients: 0, messages: 0, personas: [] };

  const persona = patients.persona;
  const where = and(
    eq(messages.direction, 'outbound'),
    isNotNull(messages.templateId),
    gte(messages.sentAt, new Date(period.start * MS_PER_DAY)),
    lt(messages.sentAt, new Date(period.end * MS_PER_DAY)),
    conditions.patients,
  );
  // One scan of the period's messages for all three levels: per persona and template, per persona, overall.
  const rows = await database
    .select({
      persona,
      templateId: messages.templateId,
      level: sql<number>`(grouping(${patients.persona}) + grouping(${messages.templateId}))::int`,
      messages: sql<number>`count(*)::int`,
      patients: sql<number>`count(distinct ${messages.patientId})::int`,
    })
    .from(messages)
    .innerJoin(patients, eq(patients.id, messages.patientId))
    .where(where)
    .groupBy(sql`grouping sets ((${patients.persona}, ${messages.templateId}), (${patients.persona}), ())`);
  const byTemplate = rows.filter((row) => Number(row.level) === 0).map((row) => ({ ...row, templateId: row.templateId ?? '' }));
  const byPersona = rows.filter((row) => Number(row.level) === 1);
  const overall = rows.find((row) => Number(row.level) === 2);

  const keyOf = (value: string | null) => value ?? personaNotAssigned;
  const small = (count: number) => suppressed && count > 0 && count < MINIMUM_GROUP_SIZE;
  const personas: PersonaTopTemplates[] = byPersona
    .map((group) => {
      const total = Number(group.messages);
      const reached = Number(group.patients);
      const key = keyOf(group.persona);
      if (small(reached)) return { persona: key, patients: null, messages: null, suppressed: true, top: [], hiddenTemplates: 0 };
      const rows = byTemplate.filter((row) => row.persona === group.persona);
      const shown = rows.filter((row) => !small(Number(row.patients)));
      const top = shown
        .map((row) => ({
          templateId: row.templateId,
          messages: Number(row.messages),
          patients: Number(row.patients),
          share: Number(row.messages) / total,
        }))
        .sort((left, right) => right.messages - left.messages || left.templateId.localeCompare(right.templateId))
        .slice(0, topTemplatesPerPersona);
      return { persona: key, patients: reached, messages: total, suppressed: false, top, hiddenTemplates: rows.length - shown.length };
    })
    .sort((left, right) => left.persona.localeCompare(right.persona));
  const reachedOverall = Number(overall?.patients ?? 0);
  // A total beside suppressed personas would let their size be worked out by subtraction: hide it then.
  const hideTotal = small(reachedOverall) || personas.some((group) => group.suppressed);
  return {
    ...base,
    patients: hideTotal ? null : reachedOverall,
    messages: hideTotal ? null : Number(overall?.messages ?? 0),
    personas,
  };
}
