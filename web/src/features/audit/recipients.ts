import type { ManagedUser } from '../../api/types';

/** Who a shift notification can be resent to: users with a notification e-mail and notifications on. */
export function notificationRecipients(users: readonly ManagedUser[]): ManagedUser[] {
  return users
    .filter((u) => Boolean(u.notificationEmail) && u.emailNotificationsEnabled)
    .sort((a, b) => a.firstName.localeCompare(b.firstName) || a.lastName.localeCompare(b.lastName));
}

export function sendLabel(count: number): string {
  return `Send to ${count} Recipient${count === 1 ? '' : 's'}`;
}
