import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weekStart } from '../safety/checks';
import {
  dateAfter,
  daysFrom,
  easternInstant,
  easternToday,
  formatInZone,
  intervalsOverlap,
  isCalendarDate,
  nextDate,
  previousDate,
  shiftInterval,
  zonedInstant,
} from './eastern';
import { durationLabel, formatShiftDate, shiftLabel, toTwelveHour } from './labels';
import { lastAuditWeek, previousMonth } from './periods';

const hours = (i: { start: Date; end: Date }) => (i.end.getTime() - i.start.getTime()) / 3_600_000;

describe('Eastern time', () => {
  it('steps calendar days across month, year and DST boundaries', () => {
    expect(previousDate('2026-03-01')).toBe('2026-02-28');
    expect(previousDate('2026-01-01')).toBe('2025-12-31');
    expect(previousDate('2026-03-09')).toBe('2026-03-08');
    expect(nextDate(previousDate('2026-11-01'))).toBe('2026-11-01');
  });

  it('counts calendar days as the calendar does, and leaves what is not a real day to date-fns', () => {
    const byLibrary = (date: string, days: number) => format(addDays(parseISO(date), days), 'yyyy-MM-dd');
    const sundayOf = (date: string) => {
      const day = parseISO(date);
      return format(addDays(day, -day.getDay()), 'yyyy-MM-dd');
    };
    const anyDay = fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2999-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((at) => at.toISOString().slice(0, 10));
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -400, max: 400 }), (date, days) => {
        expect(dateAfter(date, days)).toBe(byLibrary(date, days));
        expect(nextDate(date)).toBe(byLibrary(date, 1));
        expect(previousDate(date)).toBe(byLibrary(date, -1));
        expect(weekStart(date)).toBe(sundayOf(date));
        const later = byLibrary(date, days);
        expect(daysFrom(date, later)).toBe(differenceInCalendarDays(parseISO(later), parseISO(date)));
      }),
    );
    // date-fns's own answers, machine's zone and all, for what is not a real day.
    for (const [from, to] of [
      ['2026-02-30', '2026-03-05'],
      ['2026-01-01', 'tomorrow'],
      ['2026-03-01T12:00', '2026-03-09'],
    ] as const)
      expect(Object.is(daysFrom(from, to), differenceInCalendarDays(parseISO(to), parseISO(from)))).toBe(
        true,
      );
    for (const notADay of ['2026-02-30', '2026-13-01', '26-01-01', 'tomorrow']) {
      expect(() => nextDate(notADay)).toThrow(RangeError);
      expect(() => weekStart(notADay)).toThrow(RangeError);
    }
  });

  it('converts a wall-clock time once, and answers the same each time after', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom('00', '30', '59'),
        (at, hour, minute) => {
          const date = at.toISOString().slice(0, 10);
          const time = `${String(hour).padStart(2, '0')}:${minute}`;
          const expected = fromZonedTime(`${date}T${time}:00`, 'America/New_York').getTime();
          const first = easternInstant(date, time);
          first.setTime(0); // a caller changing its copy changes nothing kept
          expect(easternInstant(date, time).getTime()).toBe(expected);
        },
      ),
    );
  });

  it('reads wall-clock times with the offset in force that day, never a fixed one', () => {
    expect(easternInstant('2026-01-15', '08:00').toISOString()).toBe('2026-01-15T13:00:00.000Z');
    expect(easternInstant('2026-07-15', '08:00').toISOString()).toBe('2026-07-15T12:00:00.000Z');
  });

  it('gives today in Eastern time, which is still yesterday in the late UTC evening', () => {
    expect(easternToday(new Date('2026-11-23T03:30:00Z'))).toBe('2026-11-22');
    expect(easternToday(new Date('2026-11-23T05:30:00Z'))).toBe('2026-11-23');
  });

  it('puts an end not after the start on the next day', () => {
    const overnight = shiftInterval('2026-05-01', '22:00', '06:00');
    expect(hours(overnight)).toBe(8);
    expect(hours(shiftInterval('2026-05-01', '16:00', '00:00'))).toBe(8);
    expect(hours(shiftInterval('2026-05-01', '08:00', '08:00'))).toBe(24);
  });

  it('counts real hours across DST changes: 7 h on spring-forward night, 9 h on fall-back night', () => {
    expect(hours(shiftInterval('2026-03-07', '22:00', '06:00'))).toBe(7);
    expect(hours(shiftInterval('2026-10-31', '22:00', '06:00'))).toBe(9);
    expect(hours(shiftInterval('2026-11-01', '00:00', '08:00'))).toBe(9);
    expect(hours(shiftInterval('2026-03-08', '00:00', '08:00'))).toBe(7);
  });

  it('treats back-to-back shifts as not overlapping, and any shared minute as overlapping', () => {
    const morning = shiftInterval('2026-05-01', '08:00', '16:00');
    const evening = shiftInterval('2026-05-01', '16:00', '00:00');
    const overnight = shiftInterval('2026-05-01', '23:30', '07:30');
    expect(intervalsOverlap(morning, evening)).toBe(false);
    expect(intervalsOverlap(evening, overnight)).toBe(true);
    expect(intervalsOverlap(overnight, shiftInterval('2026-05-02', '07:00', '15:00'))).toBe(true);
  });
});

/**
 * `fn` run as if the machine's zone were `zone` (Node reads TZ again whenever it is set), then the
 * machine's own zone again. date-fns-tz's answers go through the machine's zone; ours must not.
 */
function onMachineIn<T>(zone: string, fn: () => T): T {
  const own = process.env.TZ;
  process.env.TZ = zone;
  try {
    return fn();
  } finally {
    if (own === undefined) delete process.env.TZ;
    else process.env.TZ = own;
  }
}

/** Zones of machines and browsers: whole hours, half and quarter hours, and a half-hour DST. */
const MACHINE_ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
];

// Instants from 1990 to 2040, and within a day of Eastern time's DST changes of 2007 to 2040 (the
// second Sunday of March, 02:00, and the first Sunday of November, 02:00 daylight time).
const sunday = (year: number, month: number, nth: number) => {
  const first = 1 + ((7 - new Date(Date.UTC(year, month - 1, 1)).getUTCDay()) % 7);
  return `${year}-${String(month).padStart(2, '0')}-${String(first + 7 * (nth - 1)).padStart(2, '0')}`;
};
const changes = Array.from({ length: 34 }, (_, i) => 2007 + i).flatMap((year) => [
  Date.parse(`${sunday(year, 3, 2)}T07:00:00Z`),
  Date.parse(`${sunday(year, 11, 1)}T06:00:00Z`),
]);
const anyInstant = fc.oneof(
  fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 11, 31) }),
  fc
    .tuple(fc.constantFrom(...changes), fc.integer({ min: -86_400_000, max: 86_400_000 }))
    .map(([at, d]) => at + d),
);

describe('formatInZone', () => {
  // Every pattern the product writes instants with, and a few more of date-fns's tokens.
  const patterns = [
    'EEE, MMM d, yyyy h:mm a',
    'MMM d, yyyy',
    'MMM d',
    'yyyy-MM-dd HH:mm',
    'yyyy-MM-dd',
    'HH:mm',
    'EEE HH:mm',
    'i',
    "yyyyMMdd'T'HHmmss'Z'",
    "yyyyMMdd'T'HHmmss",
    "EEEE, MMMM do, yyyy 'at' h:mm:ss.SSS a",
    "'it''s' QQQ wo",
  ];

  it("writes an instant as date-fns-tz's formatInTimeZone does on a UTC machine, on a machine in any zone", () => {
    fc.assert(
      fc.property(
        anyInstant,
        fc.constantFrom(...patterns),
        fc.constantFrom('America/New_York', 'UTC'),
        fc.constantFrom(...MACHINE_ZONES),
        (ms, pattern, zone, machine) => {
          const at = new Date(ms);
          const expected = onMachineIn('UTC', () => formatInTimeZone(at, zone, pattern));
          expect(onMachineIn(machine, () => formatInZone(at, zone, pattern))).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('writes the hour a machine in Europe skips as the hour it is', () => {
    // 2027-03-28 02:30 did not happen in Berlin; it did in New York (21:30 the evening before is
    // not it: 2027-03-28 02:30 Eastern is 06:30 UTC).
    const at = new Date('2027-03-28T06:30:00Z');
    expect(onMachineIn('Europe/Berlin', () => formatInZone(at, 'America/New_York', 'yyyy-MM-dd HH:mm'))).toBe(
      '2027-03-28 02:30',
    );
  });

  it('refuses a pattern that names a zone or an offset, but not the same letters quoted', () => {
    const at = new Date('2026-03-08T07:30:00Z');
    for (const pattern of ['yyyy-MM-dd HH:mm xxx', 'HH:mm z', 'O', "'at' HH:mm X"])
      expect(() => formatInZone(at, 'America/New_York', pattern)).toThrow(/writes no time zones/);
    expect(formatInZone(at, 'America/New_York', "HH:mm 'xXOz'")).toBe('03:30 xXOz');
  });
});

describe("a zone's offsets, worked out a day at a time", () => {
  // Zones whose clocks move by a half hour, whose offsets are quarter hours or carry seconds (local
  // mean time before standard time), that changed their standard offset, or skipped a whole day.
  const zones = [
    'America/New_York',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'Asia/Kathmandu',
    'America/Caracas',
    'Pacific/Apia',
    'Africa/Casablanca',
    'Africa/Monrovia',
    'Europe/Dublin',
    'America/Sao_Paulo',
  ];
  const formatters = new Map(
    zones.map((zone) => [
      zone,
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
    ]),
  );
  /** The wall clock at `ms` in `zone` as Intl reads it, instant by instant: what the days must give. */
  const throughIntl = (ms: number, zone: string) => {
    const parts = formatters.get(zone)!.formatToParts(ms);
    const field = (type: string) => parts.find((part) => part.type === type)!.value;
    return `${field('year').padStart(4, '0')}-${field('month')}-${field('day')} ${field('hour')}:${field('minute')}:${field('second')}`;
  };

  it('writes every instant as Intl reads it, in zones of every kind, on a machine in any zone', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 11, 31) }),
          anyInstant,
          // The last and first seconds of UTC years and days, where one day's offsets meet the next's.
          fc
            .tuple(fc.integer({ min: 1900, max: 2060 }), fc.integer({ min: -2000, max: 2000 }))
            .map(([year, d]) => Date.UTC(year, 0, 1) + d),
        ),
        fc.constantFrom(...zones),
        fc.constantFrom(...MACHINE_ZONES),
        (ms, zone, machine) => {
          expect(onMachineIn(machine, () => formatInZone(new Date(ms), zone, 'yyyy-MM-dd HH:mm:ss'))).toBe(
            throughIntl(ms, zone),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads back every wall clock it writes, but those that happen twice as the first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 11, 31) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const at = Math.floor(ms / 1000) * 1000;
          const [date, time] = formatInZone(new Date(at), zone, 'yyyy-MM-dd HH:mm:ss').split(' ') as [
            string,
            string,
          ];
          const read = zonedInstant(date, time, zone).getTime();
          // The same wall clock, at the instant read or (a clock set back) an earlier one.
          expect(read).toBeLessThanOrEqual(at);
          expect(formatInZone(new Date(read), zone, 'yyyy-MM-dd HH:mm:ss')).toBe(`${date} ${time}`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('writes every second of the days a zone changes its clocks as Intl reads it', () => {
    const day = 86_400_000;
    /** The UTC days of `year` whose start and end `zone` reads with different offsets, by Intl alone. */
    const changeDays = new Map<string, number[]>();
    const changesOf = (zone: string, year: number) => {
      const key = `${zone} ${year}`;
      let days = changeDays.get(key);
      if (!days) {
        const offsetAt = (ms: number) => Date.parse(`${throughIntl(ms, zone).replace(' ', 'T')}Z`) - ms;
        days = [];
        for (let at = Date.UTC(year, 0, 1); at < Date.UTC(year + 1, 0, 1); at += day)
          if (offsetAt(at) !== offsetAt(at + day)) days.push(at);
        changeDays.set(key, days);
      }
      return days;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 1900, max: 2060 }),
        fc.nat(),
        fc.integer({ min: 0, max: day / 1000 - 1 }),
        (zone, year, pick, second) => {
          const days = changesOf(zone, year);
          fc.pre(days.length > 0);
          const ms = days[pick % days.length]! + second * 1000;
          expect(formatInZone(new Date(ms), zone, 'yyyy-MM-dd HH:mm:ss'), `${zone} ${ms}`).toBe(
            throughIntl(ms, zone),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes instants of the first and last years a Date holds, which it cannot hold whole', () => {
    // A day inside either end, so that the wall clock is an instant a Date can hold too.
    const day = 86_400_000;
    for (const ms of [8.64e15 - day, 8.64e15 - 100 * day, -8.64e15 + day, -8.64e15 + 100 * day])
      for (const zone of zones)
        expect(formatInZone(new Date(ms), zone, 'yyyy-MM-dd HH:mm:ss'), `${zone} ${ms}`).toBe(
          throughIntl(ms, zone),
        );
  });

  it("keeps New York's changes to the second, and Apia's lost day", () => {
    expect(formatInZone(new Date('2026-03-08T06:59:59Z'), 'America/New_York', 'HH:mm:ss')).toBe('01:59:59');
    expect(formatInZone(new Date('2026-03-08T07:00:00Z'), 'America/New_York', 'HH:mm:ss')).toBe('03:00:00');
    expect(formatInZone(new Date('2026-11-01T05:59:59Z'), 'America/New_York', 'HH:mm:ss')).toBe('01:59:59');
    expect(formatInZone(new Date('2026-11-01T06:00:00Z'), 'America/New_York', 'HH:mm:ss')).toBe('01:00:00');
    // Samoa moved across the date line: 2011-12-29 23:59:59 was followed by 2011-12-31 00:00:00.
    expect(formatInZone(new Date('2011-12-30T09:59:59Z'), 'Pacific/Apia', 'yyyy-MM-dd HH:mm:ss')).toBe(
      '2011-12-29 23:59:59',
    );
    expect(formatInZone(new Date('2011-12-30T10:00:00Z'), 'Pacific/Apia', 'yyyy-MM-dd HH:mm:ss')).toBe(
      '2011-12-31 00:00:00',
    );
  });
});

describe('zonedInstant', () => {
  const wallClock = (ms: number) =>
    onMachineIn('UTC', () => formatInTimeZone(new Date(ms), 'America/New_York', "yyyy-MM-dd'|'HH:mm:ss"));

  it("reads a wall clock as date-fns-tz's fromZonedTime does on a UTC machine, on a machine in any zone", () => {
    fc.assert(
      fc.property(
        anyInstant,
        fc.constantFrom(0, 30 * 60_000, 60 * 60_000),
        fc.constantFrom(...MACHINE_ZONES),
        (ms, nudge, machine) => {
          // Wall clocks that happen once, twice (the first is meant) and never (02:30 in March).
          const [date, time] = wallClock(ms + nudge).split('|') as [string, string];
          const expected = onMachineIn('UTC', () =>
            fromZonedTime(`${date}T${time}`, 'America/New_York').getTime(),
          );
          expect(onMachineIn(machine, () => zonedInstant(date, time, 'America/New_York').getTime())).toBe(
            expected,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a time that happens twice as the first, on a machine in India too', () => {
    for (const machine of MACHINE_ZONES) {
      expect(
        onMachineIn(machine, () => zonedInstant('2026-11-01', '01:00', 'America/New_York').toISOString()),
      ).toBe('2026-11-01T05:00:00.000Z');
    }
  });

  it("takes '24:00' as the next midnight and refuses what is not a wall clock", () => {
    expect(zonedInstant('2027-06-01', '24:00', 'America/New_York').toISOString()).toBe(
      '2027-06-02T04:00:00.000Z',
    );
    expect(zonedInstant('2027-06-01', '08:00:30', 'America/New_York').toISOString()).toBe(
      '2027-06-01T12:00:30.000Z',
    );
    for (const [date, time] of [
      ['2027-02-30', '08:00'],
      ['2027-13-01', '08:00'],
      ['2027-6-1', '08:00'],
      ['2027-06-01', '8:00'],
      ['2027-06-01', '24:30'],
      ['2027-06-01', '12:60'],
      ['abc', '08:00'],
    ] as const)
      expect(Number.isNaN(zonedInstant(date, time, 'America/New_York').getTime()), `${date} ${time}`).toBe(
        true,
      );
  });
});

describe('labels', () => {
  it.each([
    ['00:00', '12:00 AM'],
    ['08:05', '8:05 AM'],
    ['12:00', '12:00 PM'],
    ['13:30', '1:30 PM'],
    ['23:59', '11:59 PM'],
    ['', ''],
  ])('shows %s as %s', (time, label) => expect(toTwelveHour(time)).toBe(label));

  it('says "1 hour" and "{n} hours"', () => {
    expect(durationLabel(1)).toBe('1 hour');
    expect(durationLabel(7.5)).toBe('7.5 hours');
  });

  it('formats dates like "Tue, Mar 5, 2024"', () => {
    expect(formatShiftDate('2024-03-05')).toBe('Tue, Mar 5, 2024');
  });

  it('spells every day from 1900 to 2999 as date-fns does', () => {
    const firstDay = Date.UTC(1900, 0, 1);
    const lastDay = Date.UTC(2999, 11, 31);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: (lastDay - firstDay) / 86_400_000 }), (offset) => {
        const date = new Date(firstDay + offset * 86_400_000).toISOString().slice(0, 10);
        expect(formatShiftDate(date)).toBe(format(parseISO(date), 'EEE, MMM d, yyyy'));
      }),
      { numRuns: 2000 },
    );
    for (const date of ['1900-01-01', '1969-12-31', '1970-01-01', '2000-02-29', '2999-12-31'])
      expect(formatShiftDate(date)).toBe(format(parseISO(date), 'EEE, MMM d, yyyy'));
  });

  it('names a shift by type, place, day and hours', () => {
    const shift = {
      type: 'PM',
      location: 'Maple House',
      date: '2024-03-05',
      startTime: '16:00',
      endTime: '00:00',
    };
    expect(shiftLabel(shift)).toBe('PM shift at Maple House on Tue, Mar 5, 2024, 4:00 PM – 12:00 AM');
  });
});

describe('calendar dates', () => {
  it.each(['2026-02-28', '2028-02-29', '1999-12-31'])('accepts %s', (date) =>
    expect(isCalendarDate(date)).toBe(true),
  );
  it.each([
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '0000-00-00',
    '0001-01-01',
    '9999-12-31',
    '2026-1-5',
    '',
  ])('refuses %s', (date) => expect(isCalendarDate(date)).toBe(false));
});

describe('report periods', () => {
  it('the monthly report covers the calendar month before, in Eastern time', () => {
    const period = previousMonth(easternInstant('2026-04-01', '00:00'));
    expect(period).toMatchObject({ key: '2026-03', label: 'March 2026' });
    expect(period.from).toEqual(easternInstant('2026-03-01', '00:00'));
    expect(period.until).toEqual(easternInstant('2026-04-01', '00:00'));
    expect(previousMonth(easternInstant('2026-03-31', '23:59')).key).toBe('2026-02');
    expect(previousMonth(easternInstant('2026-01-15', '12:00')).key).toBe('2025-12');
  });

  it('the weekly audit covers the 7 days to the last Monday 07:00, keyed by ISO week', () => {
    const monday = lastAuditWeek(easternInstant('2026-03-09', '07:00'));
    expect(monday.key).toBe('2026-W11');
    expect(monday.until).toEqual(easternInstant('2026-03-09', '07:00'));
    // Across the change to daylight time (Mar 8) the week is still 7 calendar days.
    expect(monday.from).toEqual(easternInstant('2026-03-02', '07:00'));
    expect(lastAuditWeek(easternInstant('2026-03-09', '06:59')).key).toBe('2026-W10');
    expect(lastAuditWeek(easternInstant('2026-03-15', '23:00')).key).toBe('2026-W11');
  });
});
