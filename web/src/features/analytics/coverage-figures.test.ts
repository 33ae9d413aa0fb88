import type { CoverageView } from '@shiftcover/domain';
import { describe, expect, it } from 'vitest';
import { defaultCoverageFilters, rangeProblem, staffHours, weekTotals } from './coverage-figures';

const week = (
  weekStart: string,
  residence: string,
  posted: number,
  filled: number,
  unfilledAtStart: number,
) => ({
  residence,
  weekStart,
  posted,
  filled,
  unfilledAtStart,
  fillRate: filled / posted,
  medianHoursToFill: null,
  p90HoursToFill: null,
  lateDrops: 1,
  hoursByStaff: [{ userId: 'u1', name: 'Alex Rivera', hours: filled * 8 }],
});

const view: CoverageView = {
  from: '2026-03-02',
  to: '2026-03-15',
  residences: ['Maple House', 'Oak Lodge'],
  weeks: [
    week('2026-03-02', 'Maple House', 4, 3, 1),
    week('2026-03-02', 'Oak Lodge', 2, 0, 2),
    week('2026-03-09', 'Oak Lodge', 3, 3, 0),
  ],
};

describe('the Analytics tab’s figures', () => {
  it('opens on the four weeks before this one and this week, Monday to Sunday, Eastern', () => {
    // Sunday evening in New York is already Monday in UTC.
    expect(defaultCoverageFilters(new Date('2026-03-23T02:00:00Z'))).toEqual({
      from: '2026-02-16',
      to: '2026-03-22',
      residence: 'all',
    });
  });

  it('refuses a range that ends before it starts', () => {
    expect(rangeProblem({ from: '2026-03-02', to: '2026-03-01', residence: 'all' })).toBe(
      'from must not be after to',
    );
    expect(rangeProblem({ from: '', to: '2026-03-01', residence: 'all' })).toBe('Choose both dates');
    expect(rangeProblem({ from: '2026-03-01', to: '2026-03-01', residence: 'all' })).toBeNull();
  });

  it('adds every residence up week by week, and each person’s hours over the range', () => {
    expect(weekTotals(view)).toEqual([
      { weekStart: '2026-03-02', posted: 6, filled: 3, unfilledAtStart: 3, lateDrops: 2, fillRate: 50 },
      { weekStart: '2026-03-09', posted: 3, filled: 3, unfilledAtStart: 0, lateDrops: 1, fillRate: 100 },
    ]);
    expect(staffHours(view)).toEqual([{ name: 'Alex Rivera', hours: 48 }]);
  });
});
