import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '../../api/types';
import { notificationRecipients, sendLabel } from './recipients';

const user = (firstName: string, notificationEmail: string | null, emailNotificationsEnabled = true) =>
  ({ id: firstName, firstName, lastName: 'X', notificationEmail, emailNotificationsEnabled }) as ManagedUser;

describe('resend recipients', () => {
  it('offers only users with a notification e-mail and notifications enabled, by name', () => {
    const users = [
      user('Sam', 'sam@x.org'),
      user('Alex', 'alex@x.org'),
      user('Riley', null),
      user('Drew', 'd@x.org', false),
    ];
    expect(notificationRecipients(users).map((u) => u.firstName)).toEqual(['Alex', 'Sam']);
  });

  it('counts the chosen recipients on the send button', () => {
    expect(sendLabel(0)).toBe('Send to 0 Recipients');
    expect(sendLabel(1)).toBe('Send to 1 Recipient');
    expect(sendLabel(3)).toBe('Send to 3 Recipients');
  });
});
