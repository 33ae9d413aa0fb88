import type { Priority, Shift } from '../../api/types';

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
