import type { ShiftStatus } from './state';

/** docs/product.md §9: drop requests need at least 4 hours notice. */
export const DROP_NOTICE_HOURS = 4;
/** docs/product.md §9: shifts complete 1 hour after their end. */
export const COMPLETION_DELAY_HOURS = 1;
/** The holder of an approved shift is reminded (e-mail and in-app) this long before it starts. */
export const REMINDER_LEAD_HOURS = 12;
/** A shift that loses its holder this close to its start needs cover urgently. */
export const URGENT_REOPEN_HOURS = 48;

export const HOUR_MS = 60 * 60 * 1000;

/** The statuses a shift can be claimed in: while nobody holds it, its status is its priority. */
export const claimableStatuses: readonly ShiftStatus[] = ['open', 'urgent', 'emergency'];

/**
 * docs/product.md §4 claimable: no assignee and status open, urgent or emergency. The decider, the read API
 * (`isOpen` and its SQL form) and the web's buttons and filters all ask this one function.
 */
export function isClaimable(shift: { assignedUserId: string | null; status: string }): boolean {
  return shift.assignedUserId === null && (claimableStatuses as readonly string[]).includes(shift.status);
}
