import { describe, expect, it } from 'vitest';
import { schedulingProblem } from './scheduling';

// 10:00 on 2026-03-05 in New York (EST, UTC-5).
const now = new Date('2026-03-05T15:00:00Z');
const details = { location: 'Maple House', date: '2026-03-05', startTime: '08:00', type: 'AM' as const };

describe('schedulingProblem', () => {
  it('accepts a day shift today, even one that has started', () => {
    expect(schedulingProblem(details, now)).toBeNull();
  });

  it('needs a location', () => {
    expect(schedulingProblem({ ...details, location: '  ' }, now)).toBe(
      'Location is required to create a shift',
    );
  });

  it('refuses dates before today in Eastern time', () => {
    expect(schedulingProblem({ ...details, date: '2026-03-04' }, now)).toBe(
      'Cannot schedule shifts for past dates',
    );
    // 02:00 UTC on the 6th is still the 5th in New York.
    expect(schedulingProblem(details, new Date('2026-03-06T02:00:00Z'))).toBeNull();
  });

  it('refuses an overnight shift today that has already started, not a later one', () => {
    const overnight = { ...details, type: 'Overnight' as const, startTime: '00:00' };
    expect(schedulingProblem(overnight, now)).toBe(
      'Cannot schedule overnight shifts that have already started',
    );
    expect(schedulingProblem({ ...overnight, startTime: '22:00' }, now)).toBeNull();
    expect(schedulingProblem({ ...overnight, date: '2026-03-06' }, now)).toBeNull();
  });
});
