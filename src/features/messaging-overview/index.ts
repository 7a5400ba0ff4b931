/**
 * The messaging overview page's feature (issue 16, docs/decisions/034). Server-only: the page's view is
 * src/features/messaging-overview/components/messaging-overview-view.tsx.
 */
export { getMessagingOverview } from './server/get-messaging-overview';
export { summariseMessageDays } from './server/summarise-message-days';
export { ALL_FILTER_VALUE, type MessagingOverview, type OverviewFilters, parseOverviewFilters } from './schemas';
