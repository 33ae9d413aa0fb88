import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shiftInterval } from '../time/eastern';
import { type CoverageShift, coverageByWeek, mondayOf, percentile } from './coverage';

const HOUR = 3_600_000;
const now = new Date('2026-03-20T12:00:00Z');

/** A shift on `date` from 08:00 to 16:00 Eastern, posted `postedAhead` hours before it starts. */
function aShift(date: string, change: Partial<CoverageShift> = {}, postedAhead = 48): CoverageShift {
  const { start, end } = shiftInterval(date, '08:00', '16:00');
  return {
    location: 'Maple House',
    date,
    startsAt: start.getTime(),
    endsAt: end.getTime(),
    postedAt: start.getTime() - postedAhead * HOUR,
    filledAt: null,
    holds: [],
    drops: [],
    ...change,
  };
}

describe('coverage by residence and Eastern week', () => {
  it('weeks start on Monday', () => {
    expect(mondayOf('2026-03-16')).toBe('2026-03-16');
    expect(mondayOf('2026-03-22')).toBe('2026-03-16');
    expect(mondayOf('2026-03-23')).toBe('2026-03-23');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });

  it('counts a shift filled when someone held it at its start, unfilled when it started with nobody', () => {
    const start = aShift('2026-03-17').startsAt;
    const filled = aShift('2026-03-17', {
      filledAt: start - 40 * HOUR,
      holds: [{ userId: 'alex', from: start - 40 * HOUR, to: null }],
    });
    const next = aShift('2026-03-18').startsAt;
    const droppedEarly = aShift('2026-03-18', {
      filledAt: next - 30 * HOUR,
      holds: [{ userId: 'sam', from: next - 30 * HOUR, to: next - 20 * HOUR }],
      drops: [{ userId: 'sam', requestedAt: next - 26 * HOUR, approvedAt: next - 20 * HOUR }],
    });
    const [week] = coverageByWeek([filled, droppedEarly, aShift('2026-03-19')], now);
    expect(week).toMatchObject({
      residence: 'Maple House',
      weekStart: '2026-03-16',
      posted: 3,
      filled: 1,
      unfilledAtStart: 2,
      medianHoursToFill: 8,
      p90HoursToFill: 18,
      lateDrops: 0,
      hoursByStaff: [{ userId: 'alex', hours: 8 }],
    });
    expect(week!.fillRate).toBeCloseTo(1 / 3);
  });

  it('counts a drop asked for under 24 hours before the start, and a shift yet to start is not unfilled', () => {
    const date = '2026-03-21';
    const start = aShift(date).startsAt;
    const late = aShift(date, {
      filledAt: start - 40 * HOUR,
      holds: [
        { userId: 'sam', from: start - 40 * HOUR, to: start - 9 * HOUR },
        { userId: 'riley', from: start - 6 * HOUR, to: null },
      ],
      drops: [{ userId: 'sam', requestedAt: start - 10 * HOUR, approvedAt: start - 9 * HOUR }],
    });
    const [week] = coverageByWeek([late, aShift('2026-03-22')], now);
    expect(week).toMatchObject({ posted: 2, filled: 1, unfilledAtStart: 0, lateDrops: 1 });
    expect(week!.hoursByStaff).toEqual([{ userId: 'riley', hours: 8 }]);
  });

  it('measures hours as real elapsed time across a DST change', () => {
    const { start, end } = shiftInterval('2026-03-08', '00:00', '08:00');
    const overnight = aShift('2026-03-08', {
      startsAt: start.getTime(),
      endsAt: end.getTime(),
      holds: [{ userId: 'jordan', from: start.getTime() - HOUR, to: null }],
    });
    expect(coverageByWeek([overnight], now)[0]!.hoursByStaff).toEqual([{ userId: 'jordan', hours: 7 }]);
  });

  const day = fc.integer({ min: 0, max: 40 }).map((n) => {
    const date = new Date(Date.UTC(2026, 2, 1 + n));
    return date.toISOString().slice(0, 10);
  });
  const aCoverageShift = fc
    .record({
      date: day,
      location: fc.constantFrom('Maple House', 'Oak Lodge', 'Day Program'),
      postedAhead: fc.integer({ min: 1, max: 400 }),
      holds: fc.array(
        fc.record({
          userId: fc.constantFrom('alex', 'sam', 'riley'),
          fromAhead: fc.integer({ min: -20, max: 400 }),
          length: fc.option(fc.integer({ min: 1, max: 100 })),
        }),
        { maxLength: 3 },
      ),
      drops: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 2 }),
    })
    .map(({ date, location, postedAhead, holds, drops }) => {
      const shift = aShift(date, { location }, postedAhead);
      const held = holds.map((h) => {
        const from = shift.startsAt - h.fromAhead * HOUR;
        return { userId: h.userId, from, to: h.length === null ? null : from + h.length * HOUR };
      });
      const filledAt = held.length === 0 ? null : Math.min(...held.map((h) => h.from));
      const dropped = drops.map((ahead) => ({
        userId: 'sam',
        requestedAt: shift.startsAt - ahead * HOUR,
        approvedAt: shift.startsAt - ahead * HOUR,
      }));
      return { ...shift, holds: held, filledAt, drops: dropped };
    });

  it('keeps every figure within its bounds, whatever the shifts', () => {
    fc.assert(
      fc.property(
        fc.array(aCoverageShift, { maxLength: 40 }),
        fc.integer({ min: 0, max: 60 }),
        (shifts, d) => {
          const at = new Date(Date.UTC(2026, 2, 1 + d, 15));
          const weeks = coverageByWeek(shifts, at);
          expect(weeks.reduce((sum, w) => sum + w.posted, 0)).toBe(shifts.length);
          for (const w of weeks) {
            expect(w.posted).toBeGreaterThan(0);
            expect(w.filled + w.unfilledAtStart).toBeLessThanOrEqual(w.posted);
            expect(w.fillRate).toBeGreaterThanOrEqual(0);
            expect(w.fillRate).toBeLessThanOrEqual(1);
            expect(w.fillRate).toBeCloseTo(w.filled / w.posted);
            if (w.medianHoursToFill === null) expect(w.p90HoursToFill).toBeNull();
            else expect(w.medianHoursToFill).toBeLessThanOrEqual(w.p90HoursToFill!);
            expect(w.medianHoursToFill ?? 0).toBeGreaterThanOrEqual(0);
            expect(w.hoursByStaff.every((h) => h.hours > 0)).toBe(true);
            expect(mondayOf(w.weekStart)).toBe(w.weekStart);
          }
          // The weeks come in order, each residence once a week.
          const keys = weeks.map((w) => `${w.weekStart} ${w.residence}`);
          expect([...keys].sort()).toEqual(keys);
          expect(new Set(keys).size).toBe(keys.length);
        },
      ),
    );
  });

  it('gives the same figures whatever order the shifts come in', () => {
    fc.assert(
      fc.property(
        fc
          .array(aCoverageShift, { maxLength: 20 })
          .chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(s, { minLength: s.length }))),
        ([shifts, shuffled]) => {
          expect(coverageByWeek(shuffled, now)).toEqual(coverageByWeek(shifts, now));
        },
      ),
    );
  });

  it('takes percentiles by nearest rank, never decreasing as p grows', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.9)).toBe(4);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 1 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (values, p, q) => {
          const sorted = [...values].sort((a, b) => a - b);
          const [low, high] = p <= q ? [p, q] : [q, p];
          expect(percentile(sorted, low)).toBeLessThanOrEqual(percentile(sorted, high));
        },
      ),
    );
  });
});
