export { type InboxCommand, type InboxEvent, inboxDecider } from './inbox';
