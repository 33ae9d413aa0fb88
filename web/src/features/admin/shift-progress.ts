import { shiftInterval } from '@shiftcover/domain';

type Timed = { date: string; startTime: string; endTime: string };

/**
 * How far through its real Eastern-time interval a shift is, 0–100 (docs/product.md §4), so a night that
 * gains or loses an hour to DST is measured in the hours actually worked.
 */
export function progressPercent(shift: Timed, now: Date): number {
  const { start, end } = shiftInterval(shift.date, shift.startTime, shift.endTime);
  const percent = ((now.getTime() - start.getTime()) / (end.getTime() - start.getTime())) * 100;
  return Math.max(0, Math.min(100, Math.round(percent)));
}

/** Still being worked: started and not yet over. */
export function isUnderway(shift: Timed, now: Date): boolean {
  const { start, end } = shiftInterval(shift.date, shift.startTime, shift.endTime);
  return start <= now && now < end;
}
