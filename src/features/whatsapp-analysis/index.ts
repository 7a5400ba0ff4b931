/**
 * The WhatsApp analysis page (issue 16, docs/decisions/033): the message store's reply analysis, and chat
 * exports a user analyses in the browser and may save for themselves. Server-only: the page's components are
 * in ./components.
 */
export { deleteChatExport } from './server/delete-chat-export';
export { chatExportNotFound, getChatExport } from './server/get-chat-export';
export { findWhatsappAnalysis } from './server/find-whatsapp-analysis';
export { getWhatsappAnalysisPage, type WhatsappAnalysisPageData } from './server/get-whatsapp-analysis-page';
export { listChatExports } from './server/list-chat-exports';
export { saveChatExport } from './server/save-chat-export';
export {
  analysisFiltersSchema,
  defaultAnalysisChannel,
  type SavedChatExport,
  type SavedChatExportSummary,
  type StoreAnalysis,
  type StoreAnalysisFilters,
  type WhatsappAnalysisPage,
} from './schemas';
