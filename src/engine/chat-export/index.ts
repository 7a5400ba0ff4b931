export {
  type ChatExportProblem,
  type ChatMessage,
  type ChatMessageKind,
  type DateOrder,
  inferDateOrder,
  type ParsedChatExport,
  parseWhatsappExport,
  type ParseWhatsappExportOptions,
} from './parse-whatsapp-export';
