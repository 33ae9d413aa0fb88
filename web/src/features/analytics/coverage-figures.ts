import { type CoverageView, dateAfter, easternToday, mondayOf } from '@shiftcover/domain';

export interface CoverageFilters {
  from: string;
  to: string;
  residence: string;
}

/** The tab opens on the four weeks before this one and this week, Monday to Sunday. */
export function defaultCoverageFilters(now: Date): CoverageFilters {
  const monday = mondayOf(easternToday(now));
  return { from: dateAfter(monday, -28), to: dateAfter(monday, 6), residence: 'all' };
}

/** What is wrong with the range before asking the server, which says the same. */
export function rangeProblem({ from, to }: CoverageFilters): string | null {
  if (!from || !to) return 'Choose both dates';
  if (from > to) return 'from must not be after to';
  return null;
}

interface WeekTotals {
  weekStart: string;
  posted: number;
  filled: number;
  unfilledAtStart: number;
  lateDrops: number;
  /** Percent, one decimal. */
  fillRate: number;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** Every residence's figures added up, week by week. */
export function weekTotals(view: CoverageView): WeekTotals[] {
  const weeks = new Map<string, WeekTotals>();
  for (const w of view.weeks) {
    const total = weeks.get(w.weekStart) ?? {
      weekStart: w.weekStart,
      posted: 0,
      filled: 0,
      unfilledAtStart: 0,
      lateDrops: 0,
      fillRate: 0,
    };
    total.posted += w.posted;
    total.filled += w.filled;
    total.unfilledAtStart += w.unfilledAtStart;
    total.lateDrops += w.lateDrops;
    total.fillRate = percent(total.filled, total.posted);
    weeks.set(w.weekStart, total);
  }
  return [...weeks.values()].sort((a, b) => a.weekStart.localeCompare(b.weekStart));
}

/** Each staff member's hours over the whole range, most first. */
export function staffHours(view: CoverageView): Array<{ name: string; hours: number }> {
  const hours = new Map<string, { name: string; hours: number }>();
  for (const w of view.weeks)
    for (const h of w.hoursByStaff) {
      const total = hours.get(h.userId) ?? { name: h.name, hours: 0 };
      total.hours = Math.round((total.hours + h.hours) * 100) / 100;
      hours.set(h.userId, total);
    }
  return [...hours.values()].sort((a, b) => b.hours - a.hours || a.name.localeCompare(b.name));
}

export const fillRatePercent = (rate: number) => Math.round(rate * 1000) / 10;
