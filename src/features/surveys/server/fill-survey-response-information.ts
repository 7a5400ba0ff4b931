import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { surveyDefinitions, surveyResponses } from '@/db/schema';
import { responseInformation } from '@/engine/surveys';

const BATCH = 500;

/**
 * Works out the information figures of responses stored without them — before migration 0029, or by an older
 * instance during a deploy — and stores them, `batchSize` at a time, so survey-evolution can sum them in SQL
 * (decision 047 addendum). Run once at start-up; the page works a missing figure out itself meanwhile. A
 * response answered again since it was read has had its figures written with its answers and is left as it is.
 * Returns how many responses it filled.
 */
export async function fillSurveyResponseInformation(options: { database: Database; batchSize?: number }): Promise<number> {
  const { database, batchSize = BATCH } = options;
  let filled = 0;
  for (;;) {
    const rows = await database
      .select({
        id: surveyResponses.id,
        answers: surveyResponses.answers,
        askedOrder: surveyResponses.askedOrder,
        definition: surveyDefinitions.definition,
      })
      .from(surveyResponses)
      .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId))
      .where(and(isNull(surveyResponses.informationBits), sql`${surveyResponses.answers} <> '{}'::jsonb`))
      .limit(batchSize);
    if (rows.length === 0) return filled;
    const figures = rows.map((row) => ({
      id: row.id,
      asked: row.askedOrder.length,
      bits: responseInformation(row.definition, { answers: row.answers, askedOrder: row.askedOrder }),
    }));
    const updated = await database
      .update(surveyResponses)
      .set({ informationBits: sql`figures.bits` })
      .from(sql`jsonb_to_recordset(${JSON.stringify(figures)}::jsonb) as figures(id uuid, asked integer, bits jsonb)`)
      .where(
        and(
          sql`${surveyResponses.id} = figures.id`,
          isNull(surveyResponses.informationBits),
          sql`cardinality(${surveyResponses.askedOrder}) = figures.asked`,
        ),
      )
      .returning({ id: surveyResponses.id });
    filled += updated.length;
    // Every row read was answered again meanwhile without its figures (an older instance still writing): stop
    // rather than read the same rows again; the next start-up fills them, and the page works them out until then.
    if (updated.length === 0) return filled;
  }
}
