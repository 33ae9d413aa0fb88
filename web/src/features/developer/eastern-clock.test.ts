import { describe, expect, it } from 'vitest';
import { easternClock } from './eastern-clock';

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
