import { formatInZone, TIME_ZONE } from '@shiftcover/domain';

/** One shift as a calendar shows it; `start` and `end` are the real instants it begins and ends. */
export interface CalendarEntry {
  uid: string;
  /** Rises each time the shift is edited, so a calendar takes the new version over the one it kept. */
  sequence: number;
  /** When the shift last changed (DTSTAMP and LAST-MODIFIED). */
  changedAt: Date;
  start: Date;
  end: Date;
  summary: string;
  location: string;
  description: string;
}

const CRLF = '\r\n';
const LINE_OCTETS = 75;
const HOUR_MS = 3_600_000;

// America/New_York as the US has kept it since 2007: daylight time from the second Sunday of March
// at 02:00 to the first Sunday of November at 02:00.
const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  `TZID:${TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** Control characters other than the tab have no place in TEXT. */
export function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== '\t') || code === 0x7f;
}

/** TEXT as RFC 5545 §3.3.11 writes it: backslashes, semicolons, commas and line breaks escaped. */
export function escapeText(value: string): string {
  const escaped = value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
  return [...escaped].filter((char) => !isControl(char)).join('');
}

/**
 * A content line folded as RFC 5545 §3.1 asks: no line longer than 75 octets, each continuation
 * starting with a space, and never inside a character's UTF-8 bytes.
 */
export function fold(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > LINE_OCTETS) {
      lines.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(CRLF);
}

const utc = (at: Date) => formatInZone(at, 'UTC', "yyyyMMdd'T'HHmmss'Z'");

const wallClock = (at: Date) => formatInZone(at, TIME_ZONE, "yyyyMMdd'T'HHmmss");

/**
 * A DTSTART or DTEND: Eastern wall-clock time with its TZID, so the calendar computes the real
 * length across a change of clocks. A time in the hour that occurs twice the night clocks fall
 * back is written in UTC instead: calendars do not agree on which of the two such a time means.
 */
function moment(name: string, at: Date): string {
  const wall = wallClock(at);
  const twice = [-HOUR_MS, HOUR_MS].some((shift) => wallClock(new Date(at.getTime() + shift)) === wall);
  return twice ? `${name}:${utc(at)}` : `${name};TZID=${TIME_ZONE}:${wall}`;
}

function event(entry: CalendarEntry): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(entry.uid)}`,
    `SEQUENCE:${entry.sequence}`,
    `DTSTAMP:${utc(entry.changedAt)}`,
    `LAST-MODIFIED:${utc(entry.changedAt)}`,
    moment('DTSTART', entry.start),
    moment('DTEND', entry.end),
    `SUMMARY:${escapeText(entry.summary)}`,
    `LOCATION:${escapeText(entry.location)}`,
    `DESCRIPTION:${escapeText(entry.description)}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
}

/** A whole calendar (RFC 5545), CRLF line ends, lines folded: the time zone, then one event per entry. */
export function calendarText(name: string, entries: readonly CalendarEntry[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Shift Coverage//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
    `X-WR-TIMEZONE:${TIME_ZONE}`,
    // How often a calendar should look again; most read these as a hint only.
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...NEW_YORK,
    ...entries.flatMap(event),
    'END:VCALENDAR',
  ];
  return lines.map(fold).join(CRLF) + CRLF;
}
