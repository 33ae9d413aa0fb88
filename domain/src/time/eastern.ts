import { addDays, format, parseISO } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/** Every business date and time of the product is read in this zone, with its real DST rules. */
export const TIME_ZONE = 'America/New_York';

export interface Interval {
  start: Date;
  end: Date;
}

/** Wall-clock times already converted, by 'YYYY-MM-DDTHH:MM': the zone's rules never change. */
const instants = new Map<string, number>();
const REMEMBERED_INSTANTS = 100_000;

/**
 * The instant a wall-clock date and time in Eastern time stands for. Working out a zone's offset
 * is costly, and the same shift times are converted again and again (every rule check, every
 * ranking), so each answer is kept.
 */
export function easternInstant(date: string, time: string): Date {
  const local = `${date}T${time}`;
  let at = instants.get(local);
  if (at === undefined) {
    at = fromZonedTime(`${local}:00`, TIME_ZONE).getTime();
    if (instants.size >= REMEMBERED_INSTANTS) instants.clear();
    instants.set(local, at);
  }
  return new Date(at);
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

const DAY_MS = 86_400_000;

/**
 * A calendar date as a count of days since 1970-01-01, undefined unless it is a real day written
 * YYYY-MM-DD. Calendar dates have no zone: counting days in UTC is exact, and far cheaper than
 * parsing and formatting through a library.
 */
export function dayNumber(date: string): number | undefined {
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-') return undefined;
  const day = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  if (Number.isNaN(day) || dateOfDay(day / DAY_MS) !== date) return undefined;
  return day / DAY_MS;
}

/** The calendar date of a day count (see `dayNumber`). */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function nextDate(date: string): string {
  return dateAfter(date, 1);
}

export function previousDate(date: string): string {
  return dateAfter(date, -1);
}

/** The calendar date `days` after `date` (before it when negative). */
export function dateAfter(date: string, days: number): string {
  const day = dayNumber(date);
  // Anything but a real day is left to date-fns, which answers as it always has.
  if (day === undefined) return format(addDays(parseISO(date), days), 'yyyy-MM-dd');
  return dateOfDay(day + days);
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
