import { easternToday, nextDate, quarterHours, shiftInterval, shiftMinutes } from '@shiftcover/domain';
import type { Shift } from '../../api/types';

/** docs/product.md §9: "This Week" is today and the seven days after it; Shift History shows 5 shifts. */
const WEEK_DAYS = 7;
const HISTORY_SIZE = 5;

export interface MyShiftsSummary {
  upcoming: Shift[];
  thisWeek: number;
  hoursThisWeek: number;
  history: Shift[];
}

const ended = (shift: Shift, now: Date) =>
  shift.status === 'completed' || shiftInterval(shift.date, shift.startTime, shift.endTime).end <= now;

const byDateThenStart = (a: Shift, b: Shift) =>
  a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime);

/**
 * Splits the user's shifts into what is still to be worked and what is done, in Eastern time.
 * Worked out on the screen from the clock rather than taken from the server's counts, so a
 * shift that ends while the screen is open moves to history without waiting for a refresh.
 */
export function summarise(shifts: Shift[], now: Date): MyShiftsSummary {
  const unique = [...new Map(shifts.map((s) => [s.id, s])).values()];
  const today = easternToday(now);
  let weekEnd = today;
  for (let day = 0; day < WEEK_DAYS; day++) weekEnd = nextDate(weekEnd);

  const upcoming = unique.filter((s) => !ended(s, now) && s.date >= today).sort(byDateThenStart);
  const thisWeek = upcoming.filter((s) => s.date <= weekEnd);
  const minutes = thisWeek.reduce((sum, s) => sum + shiftMinutes(s.date, s.startTime, s.endTime), 0);
  const history = unique
    .filter((s) => ended(s, now))
    .sort((a, b) => byDateThenStart(b, a))
    .slice(0, HISTORY_SIZE)
    .map((s) => ({ ...s, status: 'completed' as const }));

  return {
    upcoming,
    thisWeek: thisWeek.length,
    hoursThisWeek: quarterHours(minutes),
    history,
  };
}
