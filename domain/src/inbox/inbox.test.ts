import { describe, it } from 'vitest';
import { given, staffActor } from '../testing/specification';
import { now, STAMP } from '../testing/user-fixtures';
import { inboxDecider } from './inbox';

describe('marking notifications read', () => {
  it('marks some or all of one’s own notifications read', () => {
    given(inboxDecider)
      .when(
        { type: 'MarkNotificationsRead', data: { userId: 'u1', notificationIds: ['n1'] } },
        { actor: staffActor('u1'), now },
      )
      .thenEmits([{ type: 'NotificationsRead', data: { userId: 'u1', notificationIds: ['n1'], at: STAMP } }]);
    given(inboxDecider)
      .when(
        { type: 'MarkNotificationsRead', data: { userId: 'u1', notificationIds: 'all' } },
        { actor: staffActor('u1'), now },
      )
      .thenEmits([{ type: 'NotificationsRead', data: { userId: 'u1', notificationIds: null, at: STAMP } }]);
  });

  it('refuses someone else’s notifications', () => {
    given(inboxDecider)
      .when(
        { type: 'MarkNotificationsRead', data: { userId: 'u1', notificationIds: 'all' } },
        { actor: staffActor('u2'), now },
      )
      .thenRejects('forbidden');
  });
});
