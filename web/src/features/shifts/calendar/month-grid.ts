/** A month as the calendar shows it: whole weeks, Sunday to Saturday (docs/product.md §2 Calendar view). */

export interface CalendarDay {
  date: string;
  day: number;
  inMonth: boolean;
  isToday: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** 'YYYY-MM' of a 'YYYY-MM-DD' date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The month `delta` months from `month`, both 'YYYY-MM'. */
export function addMonths(month: string, delta: number): string {
  const [year = 0, m = 1] = month.split('-').map(Number);
  const d = new Date(Date.UTC(year, m - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** 'March 2026'. */
export function monthTitle(month: string): string {
  const [year = 0, m = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m - 1, 1)).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The weeks covering `month`, padded with the neighbouring months' days; `today` is the Eastern
 * date, passed in so the grid never reads the browser's own zone.
 */
export function monthGrid(month: string, today: string): CalendarDay[][] {
  const [year = 0, m = 1] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, m - 1, 1));
  const cursor = new Date(first);
  cursor.setUTCDate(1 - first.getUTCDay());
  const weeks: CalendarDay[][] = [];
  do {
    const week: CalendarDay[] = [];
    for (let i = 0; i < 7; i++) {
      const date = iso(cursor);
      week.push({
        date,
        day: cursor.getUTCDate(),
        inMonth: monthOf(date) === month,
        isToday: date === today,
      });
      cursor.setUTCDate(cursor.getUTCDate() + 1);
    }
    weeks.push(week);
  } while (monthOf(iso(cursor)) === month);
  return weeks;
}

/** Shifts grouped by their date, each day keeping the list's order. */
export function byDate<S extends { date: string }>(shifts: readonly S[]): Map<string, S[]> {
  const days = new Map<string, S[]>();
  for (const shift of shifts) days.set(shift.date, [...(days.get(shift.date) ?? []), shift]);
  return days;
}
