import { describe, expect, it } from 'vitest';
import type { Shift } from '../../api/types';
import { aShift } from '../admin/shift-fixture';
import { summarise } from './my-shifts-summary';

let next = 0;
/** One of the user's approved shifts. */
function shift(date: string, startTime: string, endTime: string, extra: Partial<Shift> = {}): Shift {
  next += 1;
  return aShift({
    id: `s${next}`,
    date,
    startTime,
    endTime,
    status: 'approved',
    assignedUserId: 'me',
    approved: true,
    ...extra,
  });
}

// 22:00 on Thursday 5 March 2026 in New York (EST), already Friday in UTC.
const thursdayEvening = new Date('2026-03-06T03:00:00Z');

describe('My Shifts summary', () => {
  it('reads "today" in Eastern time, not UTC', () => {
    const tonight = shift('2026-03-05', '23:00', '07:00', { type: 'Overnight' });
    const tomorrow = shift('2026-03-06', '08:00', '16:00');
    const summary = summarise([tomorrow, tonight], thursdayEvening);
    expect(summary.upcoming.map((s) => s.id)).toEqual([tonight.id, tomorrow.id]);
  });

  it('lists upcoming shifts by date, then start time', () => {
    const late = shift('2026-03-07', '16:00', '00:00');
    const early = shift('2026-03-07', '08:00', '16:00');
    const first = shift('2026-03-06', '16:00', '00:00');
    const summary = summarise([late, early, first], thursdayEvening);
    expect(summary.upcoming.map((s) => s.id)).toEqual([first.id, early.id, late.id]);
  });

  it('moves a shift that ended earlier today to history', () => {
    const morning = shift('2026-03-05', '08:00', '16:00');
    const summary = summarise([morning], thursdayEvening);
    expect(summary.upcoming).toEqual([]);
    expect(summary.history.map((s) => s.id)).toEqual([morning.id]);
  });

  it('keeps an overnight shift that started today in upcoming until it ends tomorrow morning', () => {
    const overnight = shift('2026-03-05', '20:00', '06:00', { type: 'Overnight' });
    expect(summarise([overnight], thursdayEvening).upcoming).toHaveLength(1);
    expect(summarise([overnight], new Date('2026-03-06T11:30:00Z')).history).toHaveLength(1);
  });

  it('counts This Week from today through seven days ahead', () => {
    const today = shift('2026-03-05', '23:00', '07:00');
    const lastDay = shift('2026-03-12', '08:00', '16:00');
    const beyond = shift('2026-03-13', '08:00', '16:00');
    const summary = summarise([today, lastDay, beyond], thursdayEvening);
    expect(summary.upcoming).toHaveLength(3);
    expect(summary.thisWeek).toBe(2);
  });

  it('totals the week in real hours, overnight shifts included', () => {
    const day = shift('2026-03-06', '08:00', '16:00');
    const overnight = shift('2026-03-06', '22:00', '06:30', { type: 'Overnight' });
    expect(summarise([day, overnight], thursdayEvening).hoursThisWeek).toBe(16.5);
  });

  it('counts the hour lost when clocks go forward during an overnight shift', () => {
    // Clocks go forward at 02:00 on Sunday 8 March 2026.
    const overnight = shift('2026-03-08', '00:00', '08:00', { type: 'Overnight' });
    expect(summarise([overnight], thursdayEvening).hoursThisWeek).toBe(7);
  });

  it('keeps the five most recent past shifts, newest first, labelled completed', () => {
    const past = ['2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03'].map(
      (d) => shift(d, '08:00', '16:00'),
    );
    const summary = summarise(past, thursdayEvening);
    expect(summary.history.map((s) => s.date)).toEqual([
      '2026-03-03',
      '2026-03-02',
      '2026-03-01',
      '2026-02-28',
      '2026-02-27',
    ]);
    expect(summary.history.every((s) => s.status === 'completed')).toBe(true);
  });

  it('shows a shift sent in both lists once', () => {
    const morning = shift('2026-03-05', '08:00', '16:00');
    const summary = summarise([morning, { ...morning }], thursdayEvening);
    expect(summary.history).toHaveLength(1);
  });
});
