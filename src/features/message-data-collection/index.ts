/**
 * The message data collection page (issue 16 item 2, docs/decisions/035). Server-only use cases; the
 * browser-safe parts (collected-fields.ts, schemas.ts, reply-intent.ts) are imported from their own files.
 */
export { exportMessageLog, messageLogCsvColumns } from './server/export-message-log';
export { dataQualityReuseMs, findMessageDataQuality, type MessageDataQuality } from './server/find-message-data-quality';
export { getMessageDataCollectionPage, type MessageDataCollectionPage } from './server/get-message-data-collection-page';
export { liveFeedLimits, streamLiveMessageFeed, type LiveFeedLimits } from './server/stream-live-message-feed';
export { parseMessageFilterQuery, type MessageFilterQuery } from './schemas';
