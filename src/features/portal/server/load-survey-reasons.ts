import 'server-only';
/**
 * The portal's missed-dose reasons from the adherence-barriers survey (issue 15 item 1): per reason, the patients of
 * the view's scope — ever dispensed one of the chosen products, in the region, as for the replies
 * (portal-reply-counts.ts) — whose latest answer in the period to one of the reason's questions gives it, and those
 * asked. One set-shaped statement: only counts leave the database.
 *
 * Read directly (no pre-aggregate): it starts from the responses completed in the period (an index on survey key and
 * completion time), so its cost follows the period's responses, not the patients or their messages.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { ReportingPeriod } from '@/db/queries/reporting-period';
import { adherenceBarriersSurvey } from '@/engine/surveys';
import { MS_PER_DAY } from '@/engine/time/local-day';
import { NOT_RECORDED, type SurveyReasonCounts, type SurveyReasonKey, surveyReasons } from '../portal-tables';

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** (reason, question, answer giving it) for every answer that gives a reason. */
const givingAnswers = surveyReasons.flatMap((reason) =>
  Object.entries(reason.gives as Readonly<Record<string, readonly string[]>>).flatMap(([question, answers]) =>
    answers.map((answer) => ({ reason: reason.key, question, answer })),
  ),
);

export async function loadSurveyReasons(options: {
  database: Database;
  productIds: readonly string[];
  /** null: every region; NOT_RECORDED: patients with none recorded. */
  region: string | null;
  period: ReportingPeriod;
}): Promise<SurveyReasonCounts> {
  const { database, productIds, period } = options;
  if (productIds.length === 0) return { respondents: 0, reasons: [] };
  const inRegion =
    options.region === null ? sql`true` : options.region === NOT_RECORDED ? sql`p.region is null` : sql`p.region = ${options.region}`;
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const giving = sql.join(
    givingAnswers.map((row) => sql`(${row.reason}::text, ${row.question}::text, ${row.answer}::text)`),
    sql`, `,
  );
  const questions = [...new Set(givingAnswers.map((row) => row.question))];
  const from = new Date(period.start * MS_PER_DAY).toISOString();
  const to = new Date(period.end * MS_PER_DAY).toISOString();
  const rows = rowsOf<{ reason: SurveyReasonKey | null; asked: number; gave: number }>(
    await database.execute(sql`
      with completed as materialized (
        select r.id, r.patient_id, r.answers, r.completed_at from survey_responses r join patients p on p.id = r.patient_id
        where r.survey_key = ${adherenceBarriersSurvey.key}
          and r.completed_at >= ${from}::timestamptz and r.completed_at < ${to}::timestamptz
          and ${inRegion}
          and exists (select 1 from dispensings d where d.patient_id = r.patient_id and d.product_id in (${list(productIds)}))
      ),
      -- Each patient's latest answer in the period to each reason question (a later survey may not ask it again).
      latest as (
        select distinct on (c.patient_id, a.key) c.patient_id, a.key as question, a.value as answer
        from completed c cross join lateral jsonb_each_text(c.answers) a
        where a.key in (${list(questions)})
        order by c.patient_id, a.key, c.completed_at desc, c.id desc
      ),
      giving (reason, question, answer) as (values ${giving}),
      asked as (
        select l.patient_id, q.reason, bool_or(g.answer is not null) as gave
        from latest l
        join (select distinct reason, question from giving) q on q.question = l.question
        left join giving g on g.reason = q.reason and g.question = l.question and g.answer = l.answer
        group by l.patient_id, q.reason
      )
      select reason, count(*)::int as asked, (count(*) filter (where gave))::int as gave from asked group by reason
      union all
      select null, count(distinct patient_id)::int, 0 from completed`),
  );
  const total = rows.find((row) => row.reason === null);
  return {
    respondents: Number(total?.asked ?? 0),
    reasons: rows
      .filter((row): row is typeof row & { reason: SurveyReasonKey } => row.reason !== null)
      .map((row) => ({ reason: row.reason, asked: Number(row.asked), gave: Number(row.gave) })),
  };
}
