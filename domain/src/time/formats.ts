import { TIME_ZONE } from './eastern';

/**
 * Instants the product shows are read in Eastern time, with EST or EDT as the date falls. Each
 * formatter is made the first time it is asked for: making one costs a browser as much as
 * formatting over a hundred dates, and a screen uses few of them.
 */
const inEastern = (options: Intl.DateTimeFormatOptions) => {
  let made: Intl.DateTimeFormat | undefined;
  return () => {
    made ??= new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, ...options });
    return made;
  };
};

const day = inEastern({ month: 'short', day: 'numeric', year: 'numeric' });
const dayAndTime = inEastern({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateAndTime = inEastern({ dateStyle: 'medium', timeStyle: 'short' });
const seconds = { hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' } as const;
const timestamp = inEastern({ month: 'short', day: 'numeric', year: 'numeric', ...seconds });
const weekdayTimestamp = inEastern({
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  ...seconds,
});
const clock = inEastern({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', ...seconds });

/** 'Mar 5, 2026'. */
export function easternDate(instant: string | Date): string {
  return day().format(new Date(instant));
}

/** 'Mar 5, 3:04 PM'. */
export function easternDayTime(instant: string | Date): string {
  return dayAndTime().format(new Date(instant));
}

/** 'Mar 5, 2026, 3:04 PM'. */
export function easternDateTime(instant: string | Date): string {
  return dateAndTime().format(new Date(instant));
}

/** 'Mar 5, 2026, 3:04:05 PM EST'. */
export function easternTimestamp(instant: string | Date): string {
  return timestamp().format(new Date(instant));
}

/** 'Thu, Mar 5, 2026, 3:04:05 PM EST'. */
export function easternWeekdayTimestamp(instant: string | Date): string {
  return weekdayTimestamp().format(new Date(instant));
}

const stamp = inEastern({
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

/** '2026-11-01 01:30:00 EST': sortable Eastern wall-clock time with its abbreviation, for operators. */
export function easternStamp(at: Date): string {
  const parts = Object.fromEntries(
    stamp()
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

export interface ClockReading {
  time: string;
  date: string;
  /** EST in winter, EDT in summer: the zone's real daylight-saving rules. */
  zone: string;
}

/** The system clock read in US Eastern time. */
export function easternClock(now: Date): ClockReading {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    clock()
      .formatToParts(now)
      .find((p) => p.type === type)?.value ?? '';
  return {
    time: `${part('hour')}:${part('minute')}:${part('second')} ${part('dayPeriod')}`,
    date: `${part('weekday')}, ${part('month')} ${part('day')}, ${part('year')}`,
    zone: part('timeZoneName'),
  };
}
