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
import { NOT_RECORDED, type SurveyReasonCounts, surveyReasons } from '../portal-tables';

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown): T[] => (result as Rows<T>).rows;

/** Each reason's questions, each with the answers that give it, in `surveyReasons` order. */
const reasonRules = surveyReasons.map((reason) => ({
  reason: reason.key,
  gives: Object.entries(reason.gives as Readonly<Record<string, readonly string[]>>),
}));

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
    options.region === null
      ? sql``
      : options.region === NOT_RECORDED
        ? sql`and exists (select 1 from patients p where p.id = c.patient_id and p.region is null)`
        : sql`and exists (select 1 from patients p where p.id = c.patient_id and p.region = ${options.region})`;
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const questions = [...new Set(reasonRules.flatMap((rule) => rule.gives.map(([question]) => question)))];
  const column = (question: string) => sql.raw(`"q_${questions.indexOf(question)}"`);
  // Per patient, the latest answer in the period to each reason question (a later survey may not ask it again): the
  // largest of "completion time, response id, answer" strings, whose fixed-width prefix orders them by time, so one
  // hash aggregate finds it with no sort and no row per answer (expanding the answers and sorting them took seconds
  // at 100,000 patients, decision 039). The prefix is 20 + 36 characters: epoch microseconds and the id.
  const latest = sql.join(
    questions.map(
      (question) =>
        sql`substr(max(case when c.answers ? ${question} then lpad((extract(epoch from c.completed_at) * 1000000)::bigint::text, 20, '0') || c.id::text || (c.answers ->> ${question}) end), 57) as ${column(question)}`,
    ),
    sql`, `,
  );
  const counts = sql.join(
    reasonRules.map((rule, index) => {
      const asked = sql.join(
        rule.gives.map(([question]) => sql`${column(question)} is not null`),
        sql` or `,
      );
      const gave = sql.join(
        rule.gives.map(([question, answers]) => sql`${column(question)} in (${list(answers)})`),
        sql` or `,
      );
      return sql`(count(*) filter (where ${asked}))::int as ${sql.raw(`asked_${index}`)}, (count(*) filter (where ${gave}))::int as ${sql.raw(`gave_${index}`)}`;
    }),
    sql`, `,
  );
  const from = new Date(period.start * MS_PER_DAY).toISOString();
  const to = new Date(period.end * MS_PER_DAY).toISOString();
  const [row] = rowsOf<Record<string, number>>(
    await database.execute(sql`
      with per_patient as (
        select c.patient_id, ${latest}
        from survey_responses c
        where c.survey_key = ${adherenceBarriersSurvey.key}
          and c.completed_at >= ${from}::timestamptz and c.completed_at < ${to}::timestamptz
          ${inRegion}
          and exists (select 1 from dispensings d where d.patient_id = c.patient_id and d.product_id in (${list(productIds)}))
        group by c.patient_id
      )
      select count(*)::int as respondents, ${counts} from per_patient`),
  );
  return {
    respondents: Number(row?.respondents ?? 0),
    reasons: reasonRules
      .map((rule, index) => ({
        reason: rule.reason,
        asked: Number(row?.[`asked_${index}`] ?? 0),
        gave: Number(row?.[`gave_${index}`] ?? 0),
      }))
      .filter((count) => count.asked > 0),
  };
}
