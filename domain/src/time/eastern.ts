import { addDays, format, parseISO } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/** Every business date and time of the product is read in this zone, with its real DST rules. */
export const TIME_ZONE = 'America/New_York';

export interface Interval {
  start: Date;
  end: Date;
}

/** The instant a wall-clock date and time in Eastern time stands for. */
export function easternInstant(date: string, time: string): Date {
  return fromZonedTime(`${date}T${time}:00`, TIME_ZONE);
}

/** The instant an Eastern calendar day begins. */
export function easternMidnight(date: string): Date {
  return easternInstant(date, '00:00');
}

/** A shift's real interval; an end not after the start falls on the next day. */
export function shiftInterval(date: string, startTime: string, endTime: string): Interval {
  const start = easternInstant(date, startTime);
  return { start, end: easternInstant(shiftEndDate(date, startTime, endTime), endTime) };
}

/** The date a shift's end time falls on: an end not after the start is on the next day. */
export function shiftEndDate(date: string, startTime: string, endTime: string): string {
  return endTime <= startTime ? nextDate(date) : date;
}

export function nextDate(date: string): string {
  return format(addDays(parseISO(date), 1), 'yyyy-MM-dd');
}

export function previousDate(date: string): string {
  return format(addDays(parseISO(date), -1), 'yyyy-MM-dd');
}

/** The calendar date `days` after `date` (before it when negative). */
export function dateAfter(date: string, days: number): string {
  return format(addDays(parseISO(date), days), 'yyyy-MM-dd');
}

/** An instant in Eastern time, written with a date-fns pattern ('EEE, MMM d, yyyy h:mm a' by default). */
export function formatEastern(at: Date | string, pattern = 'EEE, MMM d, yyyy h:mm a'): string {
  return formatInTimeZone(new Date(at), TIME_ZONE, pattern);
}

/** Today's date in Eastern time, 'YYYY-MM-DD'. */
export function easternToday(now: Date): string {
  return formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd');
}

/** The wall-clock time in Eastern time, 'HH:MM'. */
export function easternTime(now: Date): string {
  return formatInTimeZone(now, TIME_ZONE, 'HH:mm');
}

/** Half-open intervals: a shift ending at 16:00 and one starting at 16:00 do not overlap. */
export function intervalsOverlap(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/** A real day between 1900 and 2999 written as YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const parsed = new Date(`${value}T00:00:00Z`);
  return (
    year >= 1900 && year <= 2999 && !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value)
  );
}
