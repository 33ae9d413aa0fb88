import { shiftInterval } from '@shiftcover/domain';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { type CalendarEntry, calendarText, escapeText, fold, isControl } from './ics';

const entry = (
  date: string,
  startTime: string,
  endTime: string,
  summary = 'Overnight shift',
): CalendarEntry => ({
  uid: `${date}-${startTime}@shift-coverage`,
  sequence: 2,
  changedAt: new Date('2026-02-01T12:00:00Z'),
  ...shiftInterval(date, startTime, endTime),
  summary,
  location: 'Maple House, 1 Maple Road',
  description: 'Residence: Maple House\nNotes: keys; at reception, by the door',
});

/** The events as an independent parser reads them, with the feed's own VTIMEZONE registered. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('the iCalendar text of a feed', () => {
  it('escapes commas, semicolons, backslashes and line breaks in text', () => {
    expect(escapeText('a,b;c\\d\ne\r\nf')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
  });

  it('folds lines at 75 octets without splitting a character', () => {
    const line = `DESCRIPTION:${'Équipe de nuit – résidence 🏠 '.repeat(8)}`;
    const folded = fold(line);
    for (const physical of folded.split('\r\n')) {
      expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75);
      expect(physical).not.toContain('\uFFFD');
    }
    expect(unfold(folded)).toBe(line);
  });

  it('ends every line with CRLF and carries the America/New_York VTIMEZONE', () => {
    const text = calendarText('My shifts', [entry('2026-06-10', '08:00', '16:00')]);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text).toContain('TZID:America/New_York');
    expect(text).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU');
    expect(text).toContain('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU');
    expect(text).toContain('DTSTART;TZID=America/New_York:20260610T080000');
    const [event] = parse(text);
    expect(event!.uid).toBe('2026-06-10-08:00@shift-coverage');
    expect(event!.sequence).toBe(2);
    expect(event!.location).toBe('Maple House, 1 Maple Road');
    expect(event!.description).toBe('Residence: Maple House\nNotes: keys; at reception, by the door');
  });

  it('gives overnight and DST-night shifts their real length and next-day end', () => {
    const shifts = [
      ['2026-06-10', '22:00', '06:00', 8],
      ['2026-03-07', '22:00', '06:00', 7],
      ['2026-10-31', '22:00', '06:00', 9],
      // Wall-clock times the night clocks fall back, which occur twice.
      ['2026-11-01', '00:00', '01:30', null],
      ['2026-11-01', '01:30', '08:00', null],
    ] as const;
    const events = parse(
      calendarText(
        'My shifts',
        shifts.map(([d, s, e]) => entry(d, s, e)),
      ),
    );
    for (const [i, [date, start, end, hours]] of shifts.entries()) {
      const interval = shiftInterval(date, start, end);
      const event = events[i]!;
      expect(event.startDate.toJSDate().toISOString()).toBe(interval.start.toISOString());
      expect(event.endDate.toJSDate().toISOString()).toBe(interval.end.toISOString());
      if (hours !== null) expect((interval.end.getTime() - interval.start.getTime()) / 3_600_000).toBe(hours);
    }
    expect(events[0]!.endDate.day).toBe(11);
  });

  it('writes either 01:30 of the night clocks fall back in UTC, since calendars read it differently', () => {
    const first = new Date('2026-11-01T05:30:00Z');
    const second = new Date('2026-11-01T06:30:00Z');
    const text = calendarText('My shifts', [
      { ...entry('2026-11-01', '00:00', '08:00'), start: first, end: second },
    ]);
    expect(text).toContain('DTSTART:20261101T053000Z');
    expect(text).toContain('DTEND:20261101T063000Z');
    const [event] = parse(text);
    expect(event!.startDate.toJSDate()).toEqual(first);
    expect(event!.endDate.toJSDate()).toEqual(second);
  });

  it('reads back any summary exactly as it was written', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (summary) => {
        const lines = summary.replace(/\r\n|\r/g, '\n');
        const text = calendarText('My shifts', [entry('2026-06-10', '08:00', '16:00', summary)]);
        expect(parse(text)[0]!.summary).toBe([...lines].filter((c) => c === '\n' || !isControl(c)).join(''));
      }),
      { numRuns: 200 },
    );
  });
});
