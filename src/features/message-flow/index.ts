/**
 * The personalised message flow page (docs/decisions/025-message-flow-page.md): the learning policy's live
 * pipeline with counts on each step and one decision traced end to end. Server-only: the page's components
 * are in ./components.
 */
export { getMessageFlow } from './server/get-message-flow';
export { flowPeriodDays, type MessageFlowPage, type MessageFlowResult } from './schemas';
