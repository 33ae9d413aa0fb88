import { easternInstant, formatInZone, shiftInterval, TIME_ZONE } from './eastern';
import { formatShiftDate, toTwelveHour } from './labels';

const HOUR_MS = 3_600_000;
const wallClock = (instant: Date) => formatInZone(instant, TIME_ZONE, 'yyyy-MM-dd HH:mm');

/**
 * Real elapsed minutes of a shift in Eastern time, so the night clocks spring forward lasts an
 * hour less than its wall-clock times say, and the night they fall back an hour more. Every
 * duration the product shows or totals (cards, My Shifts, week hours, completed records,
 * reports) comes from here.
 */
export function shiftMinutes(date: string, startTime: string, endTime: string): number {
  const { start, end } = shiftInterval(date, startTime, endTime);
  return Math.round((end.getTime() - start.getTime()) / 60_000);
}

/** `shiftMinutes` in hours, to the nearest quarter hour, as cards and week totals show them. */
export function shiftHours(date: string, startTime: string, endTime: string): number {
  return quarterHours(shiftMinutes(date, startTime, endTime));
}

export function quarterHours(minutes: number): number {
  return Math.round((minutes / 60) * 4) / 4;
}

/** False for a wall-clock time skipped when clocks spring forward (02:30 on a March Sunday). */
export function existsInEastern(date: string, time: string): boolean {
  return wallClock(easternInstant(date, time)) === `${date} ${time}`;
}

/** True for a wall-clock time that happens twice as clocks fall back (01:30 on a November Sunday). */
export function occursTwiceInEastern(date: string, time: string): boolean {
  const first = easternInstant(date, time);
  return existsInEastern(date, time) && wallClock(new Date(first.getTime() + HOUR_MS)) === `${date} ${time}`;
}

/** Why a time cannot be used on that date, in words, for a form field and the API's 400. */
export function missingTimeMessage(date: string, time: string): string {
  return `${toTwelveHour(time)} does not exist on ${formatShiftDate(date)}: clocks in Eastern time skip from 2:00 AM to 3:00 AM. Please choose another time.`;
}

/** The hint under a time field when that time happens twice: which of the two the shift means. */
export function repeatedTimeHint(date: string, time: string): string {
  return `${toTwelveHour(time)} happens twice on ${formatShiftDate(date)} as clocks fall back; the shift uses the first one (daylight time).`;
}
