import type { Priority, Shift } from '../../api/types';
import type { PendingShift } from './types';

export type ClaimDecision = 'approve' | 'deny';

/** Sort order of docs/product.md §4: emergency first, then urgent, then date, then start time. */
export function byUrgencyThenTime(
  a: Pick<Shift, 'priority' | 'date' | 'startTime'>,
  b: Pick<Shift, 'priority' | 'date' | 'startTime'>,
): number {
  const rank: Record<Priority, number> = { emergency: 0, urgent: 1, open: 2 };
  return (
    rank[a.priority] - rank[b.priority] ||
    a.date.localeCompare(b.date) ||
    a.startTime.localeCompare(b.startTime)
  );
}

/**
 * The Pending Approvals order: by urgency, date and start time, and the claims for one slot (the
 * same location, start and end) side by side, best ranked first.
 */
export function byQueueOrder(
  a: Pick<PendingShift, 'priority' | 'date' | 'startTime' | 'endTime' | 'location' | 'rank'>,
  b: Pick<PendingShift, 'priority' | 'date' | 'startTime' | 'endTime' | 'location' | 'rank'>,
): number {
  return (
    byUrgencyThenTime(a, b) ||
    a.location.localeCompare(b.location) ||
    a.endTime.localeCompare(b.endTime) ||
    a.rank - b.rank
  );
}

/**
 * The shift as it will read once the decision lands (docs/product.md §4), shown before the server answers.
 * Denial reopens the shift at its own priority with no holder.
 */
export function decidedShift<S extends Shift>(shift: S, decision: ClaimDecision): S {
  if (decision === 'approve') return { ...shift, status: 'approved', needsApproval: false, approved: true };
  return {
    ...shift,
    status: shift.priority,
    assignedUserId: null,
    assignedUser: null,
    needsApproval: false,
    approved: false,
  };
}
