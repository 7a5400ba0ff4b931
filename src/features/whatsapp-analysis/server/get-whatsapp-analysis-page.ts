import 'server-only';
import type { Database } from '@/db/client';
import type { Viewer } from '@/db/queries/cohort-scope';
import type { PeriodChoice } from '@/db/queries/reporting-period';
import type { SavedChatExportSummary, StoreAnalysisFilters, WhatsappAnalysisPage } from '../schemas';
import { findWhatsappAnalysis } from './find-whatsapp-analysis';
import { listChatExports } from './list-chat-exports';

export type WhatsappAnalysisPageData = { store: WhatsappAnalysisPage; saved: SavedChatExportSummary[] };

/** The page's two halves: the message store's analysis, and the viewer's own saved conversations. */
export async function getWhatsappAnalysisPage(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: StoreAnalysisFilters;
  now: Date;
}): Promise<WhatsappAnalysisPageData> {
  const [store, saved] = await Promise.all([findWhatsappAnalysis(options), listChatExports(options)]);
  return { store, saved };
}
