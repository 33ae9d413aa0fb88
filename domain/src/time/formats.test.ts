import { describe, expect, it } from 'vitest';
import { formatEastern } from './eastern';
import {
  easternClock,
  easternDate,
  easternDateTime,
  easternDayTime,
  easternStamp,
  easternTimestamp,
  easternWeekdayTimestamp,
} from './formats';

describe('the Eastern system clock', () => {
  it('reads EST in winter', () => {
    expect(easternClock(new Date('2026-01-15T17:04:05Z'))).toEqual({
      time: '12:04:05 PM',
      date: 'Thursday, January 15, 2026',
      zone: 'EST',
    });
  });

  it('reads EDT in summer', () => {
    expect(easternClock(new Date('2026-07-04T03:30:00Z'))).toEqual({
      time: '11:30:00 PM',
      date: 'Friday, July 3, 2026',
      zone: 'EDT',
    });
  });

  it('switches at the real daylight-saving change (2 AM on the second Sunday of March)', () => {
    expect(easternClock(new Date('2026-03-08T06:59:59Z')).zone).toBe('EST');
    expect(easternClock(new Date('2026-03-08T07:00:00Z'))).toMatchObject({ time: '3:00:00 AM', zone: 'EDT' });
  });
});

describe('Eastern dates and times on screens', () => {
  const winter = '2026-01-15T17:04:05Z';
  const summer = '2026-07-15T17:04:05Z';

  it('writes a day, a day and time, and a timestamp with its zone', () => {
    expect(easternDate(winter)).toBe('Jan 15, 2026');
    expect(easternDayTime(winter)).toBe('Jan 15, 12:04 PM');
    expect(easternDateTime(winter)).toBe('Jan 15, 2026, 12:04 PM');
    expect(easternTimestamp(winter)).toBe('Jan 15, 2026, 12:04:05 PM EST');
    expect(easternTimestamp(summer)).toBe('Jul 15, 2026, 1:04:05 PM EDT');
    expect(easternWeekdayTimestamp(summer)).toBe('Wed, Jul 15, 2026, 1:04:05 PM EDT');
  });

  it('writes sortable operator stamps, the ambiguous hour of November with its zone', () => {
    expect(easternStamp(new Date('2026-11-01T05:30:00Z'))).toBe('2026-11-01 01:30:00 EDT');
    expect(easternStamp(new Date('2026-11-01T06:30:00Z'))).toBe('2026-11-01 01:30:00 EST');
    expect(formatEastern(summer)).toBe('Wed, Jul 15, 2026 1:04 PM');
    expect(formatEastern(summer, 'yyyy-MM-dd HH:mm')).toBe('2026-07-15 13:04');
  });

  it('reads the day in Eastern time, not UTC', () => {
    expect(easternDate('2026-01-16T03:00:00Z')).toBe('Jan 15, 2026');
  });
});
