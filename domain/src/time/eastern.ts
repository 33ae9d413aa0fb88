// Each function from its own module: date-fns's index (and date-fns-tz's, which imports it) loads
// all of date-fns's some 250 modules, which Node 22 and later read one by one, about a second at
// the start of every process and thread (app/src/startup-imports.test.ts).
import { addDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';

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
    at = zonedInstant(date, time, TIME_ZONE).getTime();
    if (instants.size >= REMEMBERED_INSTANTS) instants.clear();
    instants.set(local, at);
  }
  return new Date(at);
}

/** A zone's wall clock by its parts, one formatter a zone (making one is the costly part). */
const wallClockParts = new Map<string, Intl.DateTimeFormat>();

/**
 * What those formatters write for a year of four digits, such as `12/6/2026, 17:00:00`: read from
 * the text, which Intl makes in about a third of the time it takes to make the same text's parts.
 * Any other text (a year of fewer or more digits, an era) is read from its parts.
 */
const WALL_CLOCK_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/** How far `zone`'s wall clock is ahead of UTC at `instant`'s second, read through Intl. */
function offsetThroughIntl(zone: string, instant: number): number {
  let parts = wallClockParts.get(zone);
  if (!parts) {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockParts.set(zone, parts);
  }
  // The wall clock has no milliseconds: the instant is taken to its second too.
  const second = instant - (((instant % 1000) + 1000) % 1000);
  const text = WALL_CLOCK_TEXT.exec(parts.format(instant));
  if (text) {
    const [, month, day, year, hour, minute, sec] = text.map(Number) as number[];
    return Date.UTC(year!, month! - 1, day!, hour! % 24, minute!, sec!) - second;
  }
  const field: Record<string, number> = {};
  for (const { type, value } of parts.formatToParts(instant)) field[type] = Number(value);
  const wall = Date.UTC(
    field.year!,
    field.month! - 1,
    field.day!,
    field.hour! % 24,
    field.minute!,
    field.second!,
  );
  return wall - second;
}

/**
 * A zone's offset through one UTC day: the offset it begins with, the one the next day begins
 * with, and, where the two differ, the first second of the new one.
 */
interface DayOfOffsets {
  first: number;
  next: number;
  change?: { at: number; offset: number };
}

/** The days of offsets worked out so far, by zone and then by UTC day number. */
const zoneDays = new Map<string, Map<number, DayOfOffsets>>();
/** About three centuries of days a zone; past that the kept days start again. */
const REMEMBERED_DAYS = 100_000;
/** The last instant a Date can hold. */
const LAST_INSTANT = 8.64e15;

/**
 * A zone's offsets through a UTC day, worked out the first time the day is asked for and kept: the
 * offset at the day's start and at the next day's start (each shared with the day beside it, when
 * that is known), and where they differ, the second it changed, searched for: a zone changes its
 * clocks at most once a day. A screen that shows a few dates reads a few days, not whole years.
 * Undefined for the last instant a Date can hold, whose day ends beyond its range.
 */
function dayOfOffsets(zone: string, day: number): DayOfOffsets | undefined {
  const from = day * DAY_MS;
  const to = from + DAY_MS;
  if (to > LAST_INSTANT) return undefined;
  let days = zoneDays.get(zone);
  if (!days) {
    days = new Map();
    zoneDays.set(zone, days);
  }
  let known = days.get(day);
  if (known) return known;
  const first = days.get(day - 1)?.next ?? offsetThroughIntl(zone, from);
  const next = days.get(day + 1)?.first ?? offsetThroughIntl(zone, to);
  known = { first, next };
  if (next !== first) {
    // The change is after `before` and no later than `after`: both whole seconds.
    let [before, after] = [from, to];
    while (after - before > 1000) {
      const middle = before + Math.floor((after - before) / 2000) * 1000;
      if (offsetThroughIntl(zone, middle) === first) before = middle;
      else after = middle;
    }
    known.change = { at: after, offset: next };
  }
  if (days.size >= REMEMBERED_DAYS) days.clear();
  days.set(day, known);
  return known;
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds (negative west of it). */
function zoneOffset(zone: string, instant: number): number {
  const known = Number.isNaN(instant) ? undefined : dayOfOffsets(zone, Math.floor(instant / DAY_MS));
  if (!known) return offsetThroughIntl(zone, instant);
  return known.change && instant >= known.change.at ? known.change.offset : known.first;
}

const WALL_CLOCK_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_CLOCK_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a wall-clock date ('YYYY-MM-DD') and time ('HH:MM', 'HH:MM:SS'; '24:00' is the next
 * day's midnight) in `zone` stands for, an invalid Date for anything else. A time that happens
 * twice as clocks fall back is the first (daylight) one; a time skipped as they spring forward is
 * read with the offset after the change (02:30 as 01:30 standard time), as date-fns-tz reads it.
 *
 * Worked out from the zone's offsets at instants alone, so the machine's own zone plays no part:
 * date-fns-tz's `fromZonedTime` reads the wall clock through the machine's zone first, and on a
 * machine (or a browser) whose offset is not whole hours, India's say, read a time that happens
 * twice as the second one, an hour later.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const day = WALL_CLOCK_DATE.exec(date);
  const clock = WALL_CLOCK_TIME.exec(time);
  if (!day || !clock) return new Date(Number.NaN);
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const [hours, minutes, seconds] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
  const midnight = Date.UTC(year, month - 1, dayOfMonth);
  const real = new Date(midnight).toISOString().startsWith(date);
  const inDay = hours < 24 ? minutes < 60 && seconds < 60 : minutes === 0 && seconds === 0;
  if (!real || !inDay || hours > 24) return new Date(Number.NaN);
  // The wall clock read as if it were UTC, less the zone's offset: the offsets of the day before
  // and the day after are the only two a time near a change can have.
  const asUtc = midnight + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  const before = zoneOffset(zone, asUtc - DAY_MS);
  const after = zoneOffset(zone, asUtc + DAY_MS);
  const readWith = (offset: number) => {
    const at = asUtc - offset;
    return zoneOffset(zone, at) === offset ? at : undefined;
  };
  const candidates = [readWith(before), readWith(after)].filter((at) => at !== undefined);
  return new Date(candidates.length > 0 ? Math.min(...candidates) : asUtc - after);
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

/** Calendar days from `from` to `to` (negative when `to` is earlier), as date-fns counts them. */
export function daysFrom(from: string, to: string): number {
  const [first, last] = [dayNumber(from), dayNumber(to)];
  // Anything but real days is left to date-fns, which answers as it always has.
  if (first === undefined || last === undefined)
    return differenceInCalendarDays(parseISO(to), parseISO(from));
  return last - first;
}

/** The calendar date `days` after `date` (before it when negative). */
export function dateAfter(date: string, days: number): string {
  const day = dayNumber(date);
  // Anything but a real day is left to date-fns, which answers as it always has.
  if (day === undefined) return format(addDays(parseISO(date), days), 'yyyy-MM-dd');
  return dateOfDay(day + days);
}

/** A date-fns pattern's quoted text, or a time-zone token outside quotes (its first group). */
const QUOTED_OR_ZONE = /'(?:''|[^'])*(?:'|$)|([xXOz])/g;

/**
 * A Date whose fields are read and set in UTC. date-fns keeps the class of the Date it is given
 * (constructFrom), so it formats and steps one by its UTC fields, whatever the machine's zone.
 */
class UtcFields extends Date {}
for (const field of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds']) {
  for (const verb of field === 'Day' ? ['get'] : ['get', 'set']) {
    const utc = (Date.prototype as unknown as Record<string, unknown>)[`${verb}UTC${field}`];
    Object.defineProperty(UtcFields.prototype, `${verb}${field}`, { value: utc });
  }
}
Object.defineProperty(UtcFields.prototype, 'getTimezoneOffset', { value: () => 0 });

/**
 * An instant written with a date-fns pattern as the wall clock of `zone` reads it: what date-fns-tz's
 * `formatInTimeZone` writes for the same pattern on a machine whose own zone is UTC, on any machine
 * or browser (date-fns-tz goes through the machine's zone, and where that zone skips the hour
 * being written, writes the hour after). Patterns naming a zone or an offset (x, X, O, z) are
 * refused: there is no zone in what date-fns is given to write.
 */
export function formatInZone(at: Date, zone: string, pattern: string): string {
  for (const [, token] of pattern.matchAll(QUOTED_OR_ZONE)) {
    if (token) throw new Error(`formatInZone writes no time zones: '${token}' in '${pattern}'`);
  }
  const instant = at.getTime();
  // An invalid instant is refused by date-fns as before ('Invalid time value').
  const wall = Number.isNaN(instant) ? instant : instant + zoneOffset(zone, instant);
  return format(new UtcFields(wall), pattern);
}

/** An instant in Eastern time, written with a date-fns pattern ('EEE, MMM d, yyyy h:mm a' by default). */
export function formatEastern(at: Date | string, pattern = 'EEE, MMM d, yyyy h:mm a'): string {
  return formatInZone(new Date(at), TIME_ZONE, pattern);
}

/** Today's date in Eastern time, 'YYYY-MM-DD'. */
export function easternToday(now: Date): string {
  return formatInZone(now, TIME_ZONE, 'yyyy-MM-dd');
}

/** The wall-clock time in Eastern time, 'HH:MM'. */
export function easternTime(now: Date): string {
  return formatInZone(now, TIME_ZONE, 'HH:mm');
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
