import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';

export type InboxCommand = {
  type: 'MarkNotificationsRead';
  data: { userId: string; notificationIds: string[] | 'all' };
};
export type InboxEvent = {
  type: 'NotificationsRead';
  data: { userId: string; notificationIds: string[] | null; at: string };
};

/** A person's in-app notifications: marking them read is theirs alone. */
export const inboxDecider: Decider<InboxCommand, InboxEvent, null> = {
  initialState: () => null,
  decide(command, _state, context) {
    const { userId, notificationIds } = command.data;
    if (context.actor.kind !== 'user' || context.actor.userId !== userId) {
      reject('forbidden', 'You can only mark your own notifications as read');
    }
    if (Array.isArray(notificationIds) && notificationIds.length === 0) return [];
    const ids = notificationIds === 'all' ? null : notificationIds;
    return [
      { type: 'NotificationsRead', data: { userId, notificationIds: ids, at: context.now.toISOString() } },
    ];
  },
  evolve: (state) => state,
};
