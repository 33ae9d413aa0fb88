import type { ShiftStatus } from './state';

/** The statuses a shift can be claimed in: while nobody holds it, its status is its priority. */
export const claimableStatuses: readonly ShiftStatus[] = ['open', 'urgent', 'emergency'];

/**
 * SPEC §4 claimable: no assignee and status open, urgent or emergency. The decider, the read API
 * (`isOpen` and its SQL form) and the web's buttons and filters all ask this one function.
 */
export function isClaimable(shift: { assignedUserId: string | null; status: string }): boolean {
  return shift.assignedUserId === null && (claimableStatuses as readonly string[]).includes(shift.status);
}
