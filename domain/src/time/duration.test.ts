import { describe, expect, it } from 'vitest';
import {
  existsInEastern,
  missingTimeMessage,
  occursTwiceInEastern,
  repeatedTimeHint,
  shiftHours,
  shiftMinutes,
} from './duration';
import { easternInstant } from './eastern';

// Expected values computed from the IANA rules for America/New_York (Python zoneinfo), not from
// the code under test. Clocks spring forward at 02:00 on 2026-03-08, 2027-03-14 and 2028-03-12,
// and fall back at 02:00 on 2026-11-01, 2027-11-07 and 2028-11-05.
const DST_NIGHTS: [date: string, start: string, end: string, hours: number][] = [
  ['2026-03-07', '22:00', '06:00', 7],
  ['2026-03-08', '00:00', '08:00', 7],
  ['2026-10-31', '22:00', '06:00', 9],
  ['2026-11-01', '00:00', '08:00', 9],
  ['2027-03-13', '22:00', '06:00', 7],
  ['2027-03-14', '00:00', '08:00', 7],
  ['2027-03-14', '03:00', '11:00', 8],
  ['2027-03-15', '00:00', '08:00', 8],
  ['2027-11-06', '23:00', '07:00', 9],
  ['2027-11-07', '00:00', '08:00', 9],
  ['2027-11-07', '01:30', '09:30', 9],
  ['2028-03-11', '20:00', '08:00', 11],
  ['2028-03-12', '00:00', '08:00', 7],
  ['2028-11-04', '22:00', '06:00', 9],
  ['2028-11-05', '00:00', '08:00', 9],
];

describe('shift durations are real elapsed time in Eastern time', () => {
  it.each(DST_NIGHTS)('%s %s–%s lasts %i hours', (date, start, end, hours) => {
    expect(shiftHours(date, start, end)).toBe(hours);
    expect(shiftMinutes(date, start, end)).toBe(hours * 60);
  });

  it('counts ordinary days and overnights by the clock', () => {
    expect(shiftHours('2027-06-01', '08:00', '16:00')).toBe(8);
    expect(shiftHours('2027-06-01', '22:00', '06:00')).toBe(8);
    expect(shiftHours('2027-06-01', '08:00', '08:00')).toBe(24);
    expect(shiftMinutes('2027-06-01', '08:00', '16:30')).toBe(510);
  });

  it('rounds hours to the quarter hour', () => {
    expect(shiftHours('2027-06-01', '08:00', '08:10')).toBe(0.25);
    expect(shiftHours('2027-06-01', '08:00', '08:05')).toBe(0);
  });
});

describe('wall-clock times that do not exist or happen twice', () => {
  it.each([
    ['2026-03-08', '02:00'],
    ['2026-03-08', '02:30'],
    ['2027-03-14', '02:30'],
    ['2027-03-14', '02:59'],
    ['2028-03-12', '02:15'],
  ])('%s %s is skipped as clocks spring forward', (date, time) => {
    expect(existsInEastern(date, time)).toBe(false);
    expect(occursTwiceInEastern(date, time)).toBe(false);
  });

  it.each([
    ['2027-03-14', '01:59'],
    ['2027-03-14', '03:00'],
    ['2027-03-15', '02:30'],
    ['2027-11-07', '02:00'],
    ['2027-11-07', '00:59'],
  ])('%s %s exists once', (date, time) => {
    expect(existsInEastern(date, time)).toBe(true);
    expect(occursTwiceInEastern(date, time)).toBe(false);
  });

  it.each([
    ['2026-11-01', '01:00', '2026-11-01T05:00:00.000Z'],
    ['2027-11-07', '01:30', '2027-11-07T05:30:00.000Z'],
    ['2028-11-05', '01:59', '2028-11-05T05:59:00.000Z'],
  ])('%s %s happens twice and is read as the first (daylight) one', (date, time, instant) => {
    expect(existsInEastern(date, time)).toBe(true);
    expect(occursTwiceInEastern(date, time)).toBe(true);
    expect(easternInstant(date, time).toISOString()).toBe(instant);
  });

  it('says so in words', () => {
    expect(missingTimeMessage('2027-03-14', '02:30')).toBe(
      '2:30 AM does not exist on Sun, Mar 14, 2027: clocks in Eastern time skip from 2:00 AM to 3:00 AM. Please choose another time.',
    );
    expect(repeatedTimeHint('2027-11-07', '01:30')).toBe(
      '1:30 AM happens twice on Sun, Nov 7, 2027 as clocks fall back; the shift uses the first one (daylight time).',
    );
  });
});
