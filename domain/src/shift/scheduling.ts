import { easternInstant, easternToday } from '../time/eastern';
import type { ShiftDetails } from './schemas';

/**
 * Why a shift cannot be scheduled as given (docs/product.md §5), or null: the create dialog checks this
 * before its confirmation step and the decider enforces it.
 */
export function schedulingProblem(
  details: Pick<ShiftDetails, 'location' | 'date' | 'startTime' | 'type'>,
  now: Date,
): string | null {
  if (!details.location.trim()) return 'Location is required to create a shift';
  const today = easternToday(now);
  if (details.date < today) return 'Cannot schedule shifts for past dates';
  if (
    details.type === 'Overnight' &&
    details.date === today &&
    easternInstant(details.date, details.startTime) <= now
  ) {
    return 'Cannot schedule overnight shifts that have already started';
  }
  return null;
}
