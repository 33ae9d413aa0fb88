import { describe, expect, it } from 'vitest';
import { isUnderway, progressPercent } from './shift-progress';

const day = { date: '2026-06-10', startTime: '08:00', endTime: '16:00' };

describe('progress through a shift', () => {
  it('is the elapsed share of the shift, rounded', () => {
    // 08:00 EDT is 12:00 UTC.
    expect(progressPercent(day, new Date('2026-06-10T12:00:00Z'))).toBe(0);
    expect(progressPercent(day, new Date('2026-06-10T14:00:00Z'))).toBe(25);
    expect(progressPercent(day, new Date('2026-06-10T16:20:00Z'))).toBe(54);
  });

  it('stays between 0 and 100 before and after the shift', () => {
    expect(progressPercent(day, new Date('2026-06-10T05:00:00Z'))).toBe(0);
    expect(progressPercent(day, new Date('2026-06-11T05:00:00Z'))).toBe(100);
  });

  it('runs an evening shift on past midnight', () => {
    const evening = { date: '2026-01-15', startTime: '16:00', endTime: '00:00' };
    // 20:00 EST on the 15th is 01:00 UTC on the 16th: half of eight hours.
    expect(progressPercent(evening, new Date('2026-01-16T01:00:00Z'))).toBe(50);
    expect(isUnderway(evening, new Date('2026-01-16T04:59:00Z'))).toBe(true);
    expect(isUnderway(evening, new Date('2026-01-16T05:00:00Z'))).toBe(false);
  });

  it('runs an overnight shift that starts in the evening into the next morning', () => {
    const night = { date: '2026-01-15', startTime: '22:00', endTime: '06:00' };
    // 02:00 EST on the 16th, four of eight hours in.
    expect(progressPercent(night, new Date('2026-01-16T07:00:00Z'))).toBe(50);
  });

  it('counts the seven real hours of the night clocks spring forward', () => {
    // 2026-03-08: 00:00 EST (05:00Z) to 08:00 EDT (12:00Z) is seven hours.
    const night = { date: '2026-03-08', startTime: '00:00', endTime: '08:00' };
    expect(progressPercent(night, new Date('2026-03-08T08:30:00Z'))).toBe(50);
  });

  it('counts the nine real hours of the night clocks fall back', () => {
    // 2026-11-01: 00:00 EDT (04:00Z) to 08:00 EST (13:00Z) is nine hours.
    const night = { date: '2026-11-01', startTime: '00:00', endTime: '08:00' };
    expect(progressPercent(night, new Date('2026-11-01T08:30:00Z'))).toBe(50);
  });

  it('is underway from its start up to, not including, its end', () => {
    expect(isUnderway(day, new Date('2026-06-10T11:59:00Z'))).toBe(false);
    expect(isUnderway(day, new Date('2026-06-10T12:00:00Z'))).toBe(true);
    expect(isUnderway(day, new Date('2026-06-10T20:00:00Z'))).toBe(false);
  });
});
