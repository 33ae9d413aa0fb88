import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ScheduleEvent, type ScheduleState, scheduleDecider } from '../schedule/schedule';
import { dateAfter, easternInstant } from '../time/eastern';
import { type HeldTime, ruleBreaches } from './checks';
import { heldWithin } from './held-times';

const HOUR_MS = 3_600_000;
const FIRST_DAY = '2026-01-01';

/** A held time on `day` after the first (a year and more, across both DST changes). */
function heldTime(shift: number, day: number, startHour: number, hours: number): HeldTime {
  const date = dateAfter(FIRST_DAY, day);
  const startTime = `${String(startHour).padStart(2, '0')}:00`;
  const start = easternInstant(date, startTime);
  const end = new Date(start.getTime() + hours * HOUR_MS);
  return {
    shiftId: `s-${shift}`,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location: 'Maple House', date, startTime, endTime: end.toISOString().slice(11, 16) },
  };
}

// Few start hours and shift ids, so that times start together and shifts are reserved anew.
const time = (days: number) =>
  fc.record({
    shift: fc.nat(59),
    day: fc.nat(days),
    startHour: fc.constantFrom(6, 7, 14, 22),
    hours: fc.integer({ min: 1, max: 26 }),
  });
type Step =
  | { kind: 'reserve'; shift: number; day: number; startHour: number; hours: number }
  | { kind: 'release'; shift: number };
/** Reservations and releases over `days` days: a sparse long history, or a dense short one. */
const step = (days: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 4, arbitrary: time(days).map((t) => ({ kind: 'reserve' as const, ...t })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), shift: fc.nat(59) }) },
  );

/** The schedule a run of reservations and releases folds to, as the command handler folds it. */
function scheduleOf(steps: Step[]): ScheduleState {
  const at = '2026-01-01T00:00:00.000Z';
  let state = scheduleDecider.initialState();
  for (const s of steps) {
    const event: ScheduleEvent =
      s.kind === 'reserve'
        ? {
            type: 'TimeReserved',
            data: { userId: 'u', ...heldTime(s.shift, s.day, s.startHour, s.hours), at },
          }
        : { type: 'TimeReleased', data: { userId: 'u', shiftId: `s-${s.shift}`, at } };
    state = scheduleDecider.evolve(state, event);
  }
  return state;
}

const ids = (held: readonly HeldTime[]) => held.map((h) => h.shiftId).sort();

describe('a schedule searched by time', () => {
  it('finds exactly the held times that meet a window, as a search of every one does', () => {
    fc.assert(
      fc.property(
        fc.array(step(400), { maxLength: 120 }),
        fc.array(fc.record({ from: fc.nat(410 * 24), hours: fc.nat(24 * 10) }), {
          minLength: 1,
          maxLength: 8,
        }),
        (steps, windows) => {
          const { reservations } = scheduleOf(steps);
          for (const { from, hours } of windows) {
            const start = Date.parse(`${FIRST_DAY}T00:00:00Z`) + from * HOUR_MS;
            const end = start + hours * HOUR_MS;
            const every = reservations.filter(
              (r) => Date.parse(r.start) <= end && Date.parse(r.end) >= start,
            );
            expect(ids(heldWithin(reservations, start, end))).toEqual(ids(every));
            // A list the fold did not make has no index, and is searched in full.
            expect(ids(heldWithin([...reservations], start, end))).toEqual(ids(every));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('breaks the same working-time rules as a comparison with every held time', () => {
    fc.assert(
      fc.property(
        fc.array(step(40), { maxLength: 120 }),
        time(40),
        fc.record({
          minRestHours: fc.integer({ min: 0, max: 48 }),
          maxHoursPerWeek: fc.integer({ min: 1, max: 80 }),
          maxConsecutiveDays: fc.integer({ min: 1, max: 10 }),
          version: fc.constant(1),
        }),
        (steps, wanted, rules) => {
          const schedule = scheduleOf(steps);
          const shift = heldTime(60 + wanted.shift, wanted.day, wanted.startHour, wanted.hours);
          const sorted = (breaches: unknown[]) => breaches.map((b) => JSON.stringify(b)).sort();
          const near = ruleBreaches(shift, schedule, rules, true);
          const all = ruleBreaches(shift, schedule, rules, true, (_, held) => held);
          expect(sorted(near)).toEqual(sorted(all));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
