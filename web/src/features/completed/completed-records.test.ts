import { describe, expect, it } from 'vitest';
import {
  type CompletedFilters,
  dateSpan,
  defaultCompletedFilters,
  filterCompleted,
  workedLabel,
} from './completed-records';
import type { CompletedShift } from './types';

function record(changes: Partial<CompletedShift>): CompletedShift {
  return {
    id: 'c1',
    originalShiftId: 's1',
    location: 'Maple House',
    date: '2026-03-10',
    startTime: '08:00',
    endTime: '16:00',
    type: 'AM',
    requirements: null,
    notes: null,
    assignedUserId: 'u1',
    assignedUserName: 'Alex Rivera',
    createdById: null,
    shiftCompletedAt: '2026-03-10T22:00:00Z',
    loggedAt: '2026-03-10T22:00:00Z',
    hoursWorked: 480,
    reported: false,
    reportedAt: null,
    ...changes,
  };
}

// 2026-03-20 10:00 EDT.
const now = new Date('2026-03-20T14:00:00Z');
const records = [
  record({
    id: 'today',
    location: 'Oak Lodge',
    date: '2026-03-19',
    shiftCompletedAt: '2026-03-20T13:00:00Z',
    hoursWorked: 420,
  }),
  // 23:30 EDT on the 19th: yesterday in Eastern time although already the 20th in UTC.
  record({
    id: 'yesterday-late',
    location: 'Cedar Grove',
    shiftCompletedAt: '2026-03-20T03:30:00Z',
    hoursWorked: 540,
  }),
  record({ id: 'ten-days', shiftCompletedAt: '2026-03-10T22:00:00Z', hoursWorked: 480 }),
  record({
    id: 'last-month',
    location: 'Oak Lodge',
    date: '2026-02-27',
    shiftCompletedAt: '2026-02-27T22:00:00Z',
    hoursWorked: 480,
  }),
];
const ids = (filters: Partial<CompletedFilters>) =>
  filterCompleted(records, { ...defaultCompletedFilters, ...filters }, now).map((r) => r.id);

describe('Completed Shifts filters and order', () => {
  it('shows the newest completion first by default', () => {
    expect(ids({})).toEqual(['today', 'yesterday-late', 'ten-days', 'last-month']);
    expect(ids({ sort: 'oldest' })).toEqual(['last-month', 'ten-days', 'yesterday-late', 'today']);
  });

  it('sorts by location name, or by the longest shift first', () => {
    expect(ids({ sort: 'location' })).toEqual(['yesterday-late', 'ten-days', 'last-month', 'today']);
    expect(ids({ sort: 'duration' })).toEqual(['yesterday-late', 'last-month', 'ten-days', 'today']);
  });

  it('reads today and this month in Eastern time and the week as the last seven days', () => {
    expect(ids({ dateRange: 'today' })).toEqual(['today']);
    expect(ids({ dateRange: 'week' })).toEqual(['today', 'yesterday-late']);
    expect(ids({ dateRange: 'month' })).toEqual(['today', 'yesterday-late', 'ten-days']);
  });

  it('filters by location, together with the range', () => {
    expect(ids({ location: 'Oak Lodge' })).toEqual(['today', 'last-month']);
    expect(ids({ location: 'Oak Lodge', dateRange: 'month' })).toEqual(['today']);
  });
});

describe('dates and durations of a record', () => {
  it('shows a single date for a shift within one day', () => {
    expect(dateSpan(record({}))).toEqual({ from: '2026-03-10', to: null });
  });

  it('shows a range for an overnight shift whose end is not after its start', () => {
    expect(dateSpan(record({ startTime: '22:00', endTime: '06:00', hoursWorked: 480 }))).toEqual({
      from: '2026-03-10',
      to: '2026-03-11',
    });
    expect(dateSpan(record({ startTime: '16:00', endTime: '00:00', hoursWorked: 480 })).to).toBe(
      '2026-03-11',
    );
  });

  it('spans ceil(hours / 24) days once a shift lasted 24 hours or more', () => {
    expect(dateSpan(record({ hoursWorked: 1440 })).to).toBe('2026-03-11');
    expect(dateSpan(record({ hoursWorked: 1800 })).to).toBe('2026-03-12');
    expect(dateSpan(record({ date: '2026-03-31', hoursWorked: 2880 })).to).toBe('2026-04-02');
  });

  it('labels minutes worked as hours and minutes', () => {
    expect(workedLabel(480)).toBe('8h 0m');
    expect(workedLabel(510)).toBe('8h 30m');
    expect(workedLabel(45)).toBe('0h 45m');
    expect(workedLabel(1500)).toBe('25h 0m');
  });
});
