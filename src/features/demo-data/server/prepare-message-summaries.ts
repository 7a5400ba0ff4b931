import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { summariseMessageFacts } from '@/db/queries/message-facts';
import { summariseMessageDays } from '@/features/messaging-overview';

/**
 * Brings the messaging overview's daily summaries (decision 045) and the per-message facts of the WhatsApp
 * analysis and the data-quality checks (decision 049) up to date after a bulk load, so the first visitor of
 * those pages does not wait for a year of messages to be summarised (3 s and more on the demo dataset). Each is
 * one indexed probe when nothing is stale. Planner statistics follow: PGlite has no autovacuum to gather them.
 */
export async function prepareMessageSummaries(options: { database: Database }): Promise<{ days: number; factDays: number }> {
  const { database } = options;
  const summaries = await summariseMessageDays({ database });
  const facts = await summariseMessageFacts({ database });
  if (summaries.days > 0 || facts.days > 0)
    await database.execute(sql`analyze message_day_summaries, message_day_patient_sets, message_facts`);
  return { days: summaries.days, factDays: facts.days };
}
