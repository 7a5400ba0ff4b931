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
export {
  analyseChatExport,
  type ChatExportAnalysis,
  emptyHeatMap,
  type HourWeekdayCounts,
  interpolatedQuantile,
  type ParticipantSummary,
  replyTimeBinIndex,
  replyTimeBins,
  type ReplyTimeSummary,
  summariseReplyTimes,
  weekdayLabels,
  weekdayOfDayNumber,
} from './analyse-chat-export';
