import { isClaimable, nextDate } from '@shiftcover/domain';
import type { Shift, ShiftStatus, ShiftType } from '../../api/types';

/** The Shift Management filters of docs/product.md §2; 'all' leaves a filter off. */
export interface ShiftFilters {
  location: string;
  status: 'all' | 'open' | 'emergency' | 'urgent' | 'claimed' | 'pending';
  type: 'all' | ShiftType;
  dateRange: 'all' | 'today' | 'tomorrow' | 'this-week' | 'past';
}

export const noShiftFilters: ShiftFilters = { location: 'all', status: 'all', type: 'all', dateRange: 'all' };

export function hasActiveFilter(filters: ShiftFilters): boolean {
  return Object.values(filters).some((value) => value !== 'all');
}

// Completed shifts have their own tab and expired ones can no longer be staffed.
const managed = (status: ShiftStatus) => status !== 'completed' && status !== 'expired';

/** The shifts an administrator manages, before any filter. */
export function managedShifts(shifts: readonly Shift[]): Shift[] {
  return shifts.filter((shift) => managed(shift.status));
}

function matchesStatus(shift: Shift, status: ShiftFilters['status']): boolean {
  switch (status) {
    case 'all':
      return true;
    // docs/product.md §4: open means unassigned and still claimable, whatever its priority.
    case 'open':
      return isClaimable(shift);
    case 'claimed':
      return shift.assignedUserId !== null;
    case 'urgent':
      return shift.priority === 'urgent' || shift.priority === 'emergency';
    case 'emergency':
      return shift.priority === 'emergency';
    case 'pending':
      return shift.status === 'pending';
  }
}

/** The last day of "this week": today and the seven days after it, as on My Shifts (docs/product.md §9). */
function weekEnd(today: string): string {
  let date = today;
  for (let i = 0; i < 7; i++) date = nextDate(date);
  return date;
}

function matchesDate(date: string, range: ShiftFilters['dateRange'], today: string): boolean {
  switch (range) {
    case 'all':
      return true;
    case 'today':
      return date === today;
    case 'tomorrow':
      return date === nextDate(today);
    case 'this-week':
      return date >= today && date <= weekEnd(today);
    case 'past':
      return date < today;
  }
}

/** The shifts that pass every filter, in the order given; `today` is the Eastern date. */
export function filterShifts(shifts: readonly Shift[], filters: ShiftFilters, today: string): Shift[] {
  return shifts.filter(
    (shift) =>
      (filters.location === 'all' || shift.location === filters.location) &&
      (filters.type === 'all' || shift.type === filters.type) &&
      matchesStatus(shift, filters.status) &&
      matchesDate(shift.date, filters.dateRange, today),
  );
}

export const PAGE_SIZE = 10;

/**
 * docs/product.md §2.15: what the Load More / Show Less control offers for a list of `total` loaded
 * shifts shown `visible` at a time, when the server may hold more (`moreOnServer`).
 */
export function pagingControl(
  total: number,
  visible: number,
  moreOnServer = false,
): { kind: 'more'; remaining: number } | { kind: 'server' } | { kind: 'less' } | null {
  if (visible < total) return { kind: 'more', remaining: total - visible };
  if (moreOnServer) return { kind: 'server' };
  if (total > PAGE_SIZE) return { kind: 'less' };
  return null;
}
