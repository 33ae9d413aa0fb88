/**
 * Coverage analytics (docs/product.md §2 Analytics): how well each residence's shifts were covered,
 * week by week, from what the coverage read model keeps of each shift. Pure: the read model's rows
 * and the current instant in, the figures out, so a rebuilt read model gives the same figures.
 */

/** A time an approved person held the shift: from its approval until it was let go (null: still held). */
interface Hold {
  userId: string;
  from: number;
  to: number | null;
}

/** An approved drop: when it was asked for and when the admin approved it. */
interface Drop {
  userId: string;
  requestedAt: number;
  approvedAt: number;
}

/** One shift as the coverage read model keeps it; instants are epoch milliseconds. */
export interface CoverageShift {
  location: string;
  date: string;
  startsAt: number;
  endsAt: number;
  postedAt: number;
  /** When the shift first had an approved holder (a claim approved or an assignment). */
  filledAt: number | null;
  holds: readonly Hold[];
  drops: readonly Drop[];
}

export interface CoverageWeek {
  residence: string;
  /** The Monday the Eastern week starts on, YYYY-MM-DD. */
  weekStart: string;
  posted: number;
  filled: number;
  unfilledAtStart: number;
  /** filled / posted. */
  fillRate: number;
  /** Posting to first approved holder, in hours; null when no shift of the week was filled. */
  medianHoursToFill: number | null;
  p90HoursToFill: number | null;
  /** Approved drops requested less than 24 hours before the shift's start. */
  lateDrops: number;
  hoursByStaff: Array<{ userId: string; hours: number }>;
}

const HOUR_MS = 3_600_000;
const LATE_DROP_NOTICE_HOURS = 24;

/** The Monday of the week `date` (YYYY-MM-DD) falls in: weeks start on Monday. */
export function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
}

/** The nearest-rank percentile of ascending `sorted` (not empty), p in (0, 1]. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1]!;
}

/** Who held the shift when it started; for a shift yet to start, who holds it now. */
function holderAtStart(shift: CoverageShift): string | null {
  const hold = shift.holds.find((h) => h.from <= shift.startsAt && (h.to === null || h.to > shift.startsAt));
  return hold?.userId ?? null;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

function week(residence: string, start: string, shifts: readonly CoverageShift[], now: number): CoverageWeek {
  let filled = 0;
  let unfilledAtStart = 0;
  let lateDrops = 0;
  const toFill: number[] = [];
  const hours = new Map<string, number>();
  for (const shift of shifts) {
    const holder = holderAtStart(shift);
    if (holder !== null) {
      filled += 1;
      hours.set(holder, (hours.get(holder) ?? 0) + (shift.endsAt - shift.startsAt) / HOUR_MS);
    } else if (shift.startsAt <= now) unfilledAtStart += 1;
    if (shift.filledAt !== null) toFill.push(Math.max(0, shift.filledAt - shift.postedAt) / HOUR_MS);
    lateDrops += shift.drops.filter(
      (drop) => shift.startsAt - drop.requestedAt < LATE_DROP_NOTICE_HOURS * HOUR_MS,
    ).length;
  }
  toFill.sort((a, b) => a - b);
  return {
    residence,
    weekStart: start,
    posted: shifts.length,
    filled,
    unfilledAtStart,
    fillRate: shifts.length === 0 ? 0 : filled / shifts.length,
    medianHoursToFill: toFill.length === 0 ? null : round(percentile(toFill, 0.5), 2),
    p90HoursToFill: toFill.length === 0 ? null : round(percentile(toFill, 0.9), 2),
    lateDrops,
    hoursByStaff: [...hours]
      .map(([userId, total]) => ({ userId, hours: round(total, 2) }))
      .sort((a, b) => b.hours - a.hours || a.userId.localeCompare(b.userId)),
  };
}

/** The figures of each residence and Eastern week the shifts fall in, by week then residence. */
export function coverageByWeek(shifts: readonly CoverageShift[], now: Date): CoverageWeek[] {
  const groups = new Map<string, { residence: string; start: string; shifts: CoverageShift[] }>();
  for (const shift of shifts) {
    const start = mondayOf(shift.date);
    const key = JSON.stringify([start, shift.location]);
    const group = groups.get(key) ?? { residence: shift.location, start, shifts: [] };
    group.shifts.push(shift);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.start.localeCompare(b.start) || a.residence.localeCompare(b.residence))
    .map((g) => week(g.residence, g.start, g.shifts, now.getTime()));
}
