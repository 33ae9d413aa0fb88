import { describe, expect, it } from 'vitest';
import type { Shift } from '../../api/types';
import {
  filterShifts,
  hasActiveFilter,
  managedShifts,
  noShiftFilters,
  PAGE_SIZE,
  pagingControl,
  type ShiftFilters,
} from './shift-filters';
import { aShift } from './shift-fixture';

const holder = { id: 'u1', firstName: 'Alex', lastName: 'Rivera' };
const shifts: Shift[] = [
  aShift({ id: 'open-today', date: '2026-03-05' }),
  aShift({ id: 'urgent-tomorrow', date: '2026-03-06', status: 'urgent', priority: 'urgent', type: 'PM' }),
  aShift({
    id: 'emergency-week',
    date: '2026-03-12',
    status: 'emergency',
    priority: 'emergency',
    location: 'Oak Lodge',
  }),
  aShift({
    id: 'pending',
    date: '2026-03-07',
    status: 'pending',
    assignedUserId: 'u1',
    assignedUser: holder,
  }),
  aShift({
    id: 'approved-urgent',
    date: '2026-03-13',
    status: 'approved',
    priority: 'urgent',
    assignedUserId: 'u1',
    assignedUser: holder,
    type: 'Overnight',
  }),
  aShift({ id: 'past', date: '2026-03-04' }),
];
const today = '2026-03-05';
const ids = (filters: Partial<ShiftFilters>) =>
  filterShifts(shifts, { ...noShiftFilters, ...filters }, today).map((s) => s.id);

describe('Shift Management filters', () => {
  it('shows every shift with no filter and keeps the order given', () => {
    expect(ids({})).toEqual(shifts.map((s) => s.id));
  });

  it('reads open as unassigned and claimable, whatever the priority', () => {
    expect(ids({ status: 'open' })).toEqual(['open-today', 'urgent-tomorrow', 'emergency-week', 'past']);
  });

  it('reads claimed as having an assignee, urgent as urgent or emergency, pending as awaiting approval', () => {
    expect(ids({ status: 'claimed' })).toEqual(['pending', 'approved-urgent']);
    expect(ids({ status: 'urgent' })).toEqual(['urgent-tomorrow', 'emergency-week', 'approved-urgent']);
    expect(ids({ status: 'emergency' })).toEqual(['emergency-week']);
    expect(ids({ status: 'pending' })).toEqual(['pending']);
  });

  it('filters by location and shift type', () => {
    expect(ids({ location: 'Oak Lodge' })).toEqual(['emergency-week']);
    expect(ids({ type: 'PM' })).toEqual(['urgent-tomorrow']);
    expect(ids({ type: 'Overnight', status: 'claimed' })).toEqual(['approved-urgent']);
  });

  it('reads date ranges from the Eastern date: today, tomorrow, the coming week, and before today', () => {
    expect(ids({ dateRange: 'today' })).toEqual(['open-today']);
    expect(ids({ dateRange: 'tomorrow' })).toEqual(['urgent-tomorrow']);
    expect(ids({ dateRange: 'this-week' })).toEqual([
      'open-today',
      'urgent-tomorrow',
      'emergency-week',
      'pending',
    ]);
    expect(ids({ dateRange: 'past' })).toEqual(['past']);
  });

  it('crosses month ends for tomorrow and the week', () => {
    const late = [
      aShift({ id: 'april-1', date: '2026-04-01' }),
      aShift({ id: 'april-8', date: '2026-04-08' }),
    ];
    const from = (range: ShiftFilters['dateRange']) =>
      filterShifts(late, { ...noShiftFilters, dateRange: range }, '2026-03-31').map((s) => s.id);
    expect(from('tomorrow')).toEqual(['april-1']);
    expect(from('this-week')).toEqual(['april-1']);
  });

  it('knows when a filter is active', () => {
    expect(hasActiveFilter(noShiftFilters)).toBe(false);
    expect(hasActiveFilter({ ...noShiftFilters, dateRange: 'past' })).toBe(true);
  });

  it('leaves completed and expired shifts to their own places', () => {
    const all = [
      aShift({ id: 'a' }),
      aShift({ id: 'done', status: 'completed' }),
      { ...aShift({ id: 'gone' }), status: 'expired' } as unknown as Shift,
    ];
    expect(managedShifts(all).map((s) => s.id)).toEqual(['a']);
  });
});

describe('Load More and Show Less', () => {
  it('offers the rest ten at a time, then Show Less once all of more than ten are shown', () => {
    expect(pagingControl(25, PAGE_SIZE)).toEqual({ kind: 'more', remaining: 15 });
    expect(pagingControl(25, 20)).toEqual({ kind: 'more', remaining: 5 });
    expect(pagingControl(25, 30)).toEqual({ kind: 'less' });
    expect(pagingControl(10, PAGE_SIZE)).toBeNull();
    expect(pagingControl(3, PAGE_SIZE)).toBeNull();
    expect(pagingControl(25, 30, true)).toEqual({ kind: 'server' });
    expect(pagingControl(25, 20, true)).toEqual({ kind: 'more', remaining: 5 });
  });
});
