import { easternToday, nextDate } from '@shiftcover/domain';
import type { CompletedShift } from './types';

/** The Completed Shifts filters of docs/product.md §2. */
export interface CompletedFilters {
  location: string;
  dateRange: 'all' | 'today' | 'week' | 'month';
  sort: 'newest' | 'oldest' | 'location' | 'duration';
}

export const defaultCompletedFilters: CompletedFilters = {
  location: 'all',
  dateRange: 'all',
  sort: 'newest',
};

const WEEK_MS = 7 * 86_400_000;

/** Completion time within the range: today and this month in Eastern time, or the last seven days. */
function completedWithin(record: CompletedShift, range: CompletedFilters['dateRange'], now: Date): boolean {
  const completedAt = new Date(record.shiftCompletedAt);
  switch (range) {
    case 'all':
      return true;
    case 'today':
      return easternToday(completedAt) === easternToday(now);
    case 'week':
      return completedAt.getTime() >= now.getTime() - WEEK_MS && completedAt <= now;
    case 'month':
      return easternToday(completedAt).slice(0, 7) === easternToday(now).slice(0, 7);
  }
}

const byShiftTime = (a: CompletedShift, b: CompletedShift) =>
  a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime);
const completedTime = (record: CompletedShift) => new Date(record.shiftCompletedAt).getTime();

const orders: Record<CompletedFilters['sort'], (a: CompletedShift, b: CompletedShift) => number> = {
  newest: (a, b) => completedTime(b) - completedTime(a) || byShiftTime(b, a),
  oldest: (a, b) => completedTime(a) - completedTime(b) || byShiftTime(a, b),
  location: (a, b) => a.location.localeCompare(b.location) || byShiftTime(a, b),
  duration: (a, b) => b.hoursWorked - a.hoursWorked || byShiftTime(a, b),
};

export function filterCompleted(
  records: readonly CompletedShift[],
  filters: CompletedFilters,
  now: Date,
): CompletedShift[] {
  return records
    .filter(
      (record) =>
        (filters.location === 'all' || record.location === filters.location) &&
        completedWithin(record, filters.dateRange, now),
    )
    .sort(orders[filters.sort]);
}

const DAY_MINUTES = 24 * 60;

/**
 * docs/product.md §9: a record spans more than one day when its end is not after its start or it lasted 24
 * hours or more; it then reaches as many days past its date as ceil(hours / 24).
 */
export function dateSpan(record: Pick<CompletedShift, 'date' | 'startTime' | 'endTime' | 'hoursWorked'>): {
  from: string;
  to: string | null;
} {
  const multiDay = record.endTime <= record.startTime || record.hoursWorked >= DAY_MINUTES;
  if (!multiDay) return { from: record.date, to: null };
  const days = Math.max(1, Math.ceil(record.hoursWorked / DAY_MINUTES));
  let to = record.date;
  for (let i = 0; i < days; i++) to = nextDate(to);
  return { from: record.date, to };
}

/** hoursWorked is in minutes: 510 → '8h 30m'. */
export function workedLabel(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  return `${Math.floor(whole / 60)}h ${whole % 60}m`;
}
