import { describe, expect, it } from 'vitest';
import { addMonths, byDate, monthGrid, monthOf, monthTitle } from './month-grid';

describe('the calendar month grid', () => {
  it('covers the month in whole weeks from Sunday, with the neighbouring days marked', () => {
    // March 2026 starts on a Sunday and ends on a Tuesday.
    const weeks = monthGrid('2026-03', '2026-03-05');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]?.[0]).toEqual({ date: '2026-03-01', day: 1, inMonth: true, isToday: false });
    expect(weeks[0]?.[4]).toMatchObject({ date: '2026-03-05', isToday: true });
    expect(weeks[4]?.map((d) => d.date)).toEqual([
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
    ]);
    expect(weeks[4]?.[3]?.inMonth).toBe(false);
  });

  it('starts with the previous month’s days when the first is mid-week', () => {
    // February 2026 starts on a Sunday too; January 2026 on a Thursday.
    const weeks = monthGrid('2026-01', '2026-03-05');
    expect(weeks[0]?.[0]).toMatchObject({ date: '2025-12-28', inMonth: false });
    expect(weeks[0]?.[4]).toMatchObject({ date: '2026-01-01', inMonth: true });
    expect(weeks.flat().some((d) => d.isToday)).toBe(false);
    expect(weeks.at(-1)?.at(-1)?.date).toBe('2026-01-31');
  });

  it('moves between months across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(monthOf('2026-03-05')).toBe('2026-03');
    expect(monthTitle('2026-03')).toBe('March 2026');
  });

  it('groups shifts by day, keeping their order', () => {
    const days = byDate([
      { id: 'a', date: '2026-03-05' },
      { id: 'b', date: '2026-03-06' },
      { id: 'c', date: '2026-03-05' },
    ]);
    expect(days.get('2026-03-05')?.map((s) => s.id)).toEqual(['a', 'c']);
    expect(days.get('2026-03-07')).toBeUndefined();
  });
});
