import { createHash } from 'node:crypto';

/** Stream names, in one place. Unique values are hashed so no personal data names a stream. */
export const streams = {
  shift: (shiftId: string) => `shift-${shiftId}`,
  schedule: (userId: string) => `schedule-${userId}`,
  user: (userId: string) => `user-${userId}`,
  residence: (residenceId: string) => `residence-${residenceId}`,
  emailNotificationMode: () => 'config-email-notification-mode',
  inbox: (userId: string) => `inbox-${userId}`,
  operation: (operationId: string) => `operation-${operationId}`,
  unique: (kind: string, normalisedValue: string) =>
    `unique-${kind}-${createHash('sha256').update(normalisedValue).digest('hex').slice(0, 40)}`,
};

/** A reservation younger than this is a command still in flight, never taken for abandoned. */
export const RESERVATION_GRACE_MS = 30_000;
