/** The local e-mail and SMS outbox (development and tests): whether it is served here, and its messages. */
export { listOutboxMessages, outboxIsAvailable } from './server/list-outbox-messages';
