import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  foldAtOnce,
  restoreSchedule,
  type ScheduleEvent,
  type ScheduleState,
  scheduleDecider,
} from '../schedule/schedule';
import { dateAfter, easternInstant } from '../time/eastern';
import { type HeldTime, ruleBreaches } from './checks';
import { heldShift, heldWithin } from './held-times';

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

/** Any event of a schedule: reservations and releases as above, and the rest of what it records. */
const anyEvent = (days: number): fc.Arbitrary<ScheduleEvent> => {
  const at = '2026-01-01T00:00:00.000Z';
  const userId = 'u';
  return fc.oneof(
    {
      weight: 8,
      arbitrary: step(days).map(
        (s): ScheduleEvent =>
          s.kind === 'reserve'
            ? {
                type: 'TimeReserved',
                data: { userId, ...heldTime(s.shift, s.day, s.startHour, s.hours), at },
              }
            : { type: 'TimeReleased', data: { userId, shiftId: `s-${s.shift}`, at } },
      ),
    },
    // A held time that cannot be read: the list goes without an index while it holds it.
    {
      weight: 1,
      arbitrary: fc.nat(59).map(
        (shift): ScheduleEvent => ({
          type: 'TimeReserved',
          data: { userId, ...heldTime(shift, 0, 6, 8), start: 'not a time', at },
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({ id: fc.nat(3), name: fc.constantFrom('CPR', 'First aid') }).map(
        ({ id, name }): ScheduleEvent => ({
          type: 'CredentialRecorded',
          data: { userId, credentialId: `c-${id}`, name, expiresOn: null, replaces: [`c-${id - 1}`], at },
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.nat(3).map(
        (id): ScheduleEvent => ({
          type: 'CredentialRemoved',
          data: { userId, credentialId: `c-${id}`, name: 'CPR', at },
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.nat(3).map(
        (id): ScheduleEvent => ({
          type: 'TimeOffRecorded',
          data: {
            userId,
            timeOffId: `t-${id}`,
            startDate: '2026-02-01',
            endDate: '2026-02-03',
            note: null,
            at,
          },
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .nat(3)
        .map(
          (id): ScheduleEvent => ({ type: 'TimeOffCancelled', data: { userId, timeOffId: `t-${id}`, at } }),
        ),
    },
  );
};

const stepByStep = (state: ScheduleState, events: readonly ScheduleEvent[]) =>
  events.reduce(scheduleDecider.evolve, state);

describe('a schedule folded at once (a load)', () => {
  it('comes to the state the fold step by step comes to, searched by time alike, from any state', () => {
    fc.assert(
      fc.property(
        fc.array(anyEvent(60), { maxLength: 120 }),
        fc.array(anyEvent(60), { maxLength: 120 }),
        fc.array(anyEvent(60), { maxLength: 20 }),
        fc.array(fc.record({ from: fc.nat(70 * 24), hours: fc.nat(24 * 10) }), {
          minLength: 1,
          maxLength: 6,
        }),
        (before, loaded, after, windows) => {
          // A state folded step by step (a remembered one), then a load's events at once, then steps
          // again (the commands after it), against steps all the way.
          const start = stepByStep(scheduleDecider.initialState(), before);
          const expected = stepByStep(start, loaded);
          const folded = foldAtOnce(start, loaded);
          // The decider's own, which steps through a short run, comes to the same.
          expect(scheduleDecider.evolveAll!(start, loaded)).toEqual(expected);
          expect(folded).toEqual(expected);
          expect(stepByStep(folded, after)).toEqual(stepByStep(expected, after));
          // From nothing, as a first load folds.
          expect(foldAtOnce(scheduleDecider.initialState(), [...before, ...loaded])).toEqual(expected);
          for (const { from, hours } of windows) {
            const windowStart = Date.parse(`${FIRST_DAY}T00:00:00Z`) + from * HOUR_MS;
            const windowEnd = windowStart + hours * HOUR_MS;
            for (const [mine, theirs] of [
              [folded, expected],
              [stepByStep(folded, after), stepByStep(expected, after)],
            ] as const) {
              expect(heldWithin(mine.reservations, windowStart, windowEnd)).toEqual(
                heldWithin(theirs.reservations, windowStart, windowEnd),
              );
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('comes to the same state, searched by time alike, from a snapshot of it kept as JSON and restored', () => {
    fc.assert(
      fc.property(
        fc.array(anyEvent(60), { maxLength: 150 }),
        fc.array(anyEvent(60), { maxLength: 40 }),
        fc.array(fc.record({ from: fc.nat(70 * 24), hours: fc.nat(24 * 10) }), {
          minLength: 1,
          maxLength: 6,
        }),
        (before, after, windows) => {
          const state = scheduleDecider.evolveAll!(scheduleDecider.initialState(), before);
          const restored = scheduleDecider.snapshot!.restore(JSON.parse(JSON.stringify(state)));
          expect(restored).toEqual(state);
          // The commands after it step on from the restored state, or a load folds them at once.
          for (const fold of [stepByStep, foldAtOnce]) {
            const mine = fold(restored, after);
            const theirs = stepByStep(state, after);
            expect(mine).toEqual(theirs);
            for (const { from, hours } of windows) {
              const windowStart = Date.parse(`${FIRST_DAY}T00:00:00Z`) + from * HOUR_MS;
              const windowEnd = windowStart + hours * HOUR_MS;
              for (const [a, b] of [
                [restored, state],
                [mine, theirs],
              ] as const) {
                expect(heldWithin(a.reservations, windowStart, windowEnd)).toEqual(
                  heldWithin(b.reservations, windowStart, windowEnd),
                );
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    // A shift held twice: no fold makes that, and its steps would take out one of the two.
    const twice = JSON.parse(
      JSON.stringify(scheduleOf([{ kind: 'reserve', shift: 1, day: 3, startHour: 7, hours: 8 }])),
    );
    twice.reservations.push(twice.reservations[0]);
    for (const json of [null, 'text', {}, { reservations: [], credentials: [], timeOff: [] }, twice]) {
      expect(() => restoreSchedule(json)).toThrow('not the state of a schedule');
    }
  });

  it('keeps the list, and its index, of a state whose reservations the events leave as they are', () => {
    const state = scheduleOf([{ kind: 'reserve', shift: 1, day: 3, startHour: 7, hours: 8 }]);
    const folded = foldAtOnce(state, [
      { type: 'TimeReleased', data: { userId: 'u', shiftId: 's-2', at: '2026-01-02T00:00:00.000Z' } },
      {
        type: 'TimeOffRecorded',
        data: {
          userId: 'u',
          timeOffId: 't-1',
          startDate: '2026-02-01',
          endDate: '2026-02-01',
          note: null,
          at: '2026-01-02T00:00:00.000Z',
        },
      },
    ]);
    expect(folded.reservations).toBe(state.reservations);
    expect(folded.timeOff).toHaveLength(1);
  });
});

/** The reservations a run of events leaves, worked out without the fold: each shift's latest, in the order last reserved. */
function heldAfter(events: readonly ScheduleEvent[]): unknown[] {
  const held = new Map<string, unknown>();
  for (const event of events) {
    if (event.type !== 'TimeReserved' && event.type !== 'TimeReleased') continue;
    held.delete(event.data.shiftId);
    if (event.type === 'TimeReserved') {
      const { userId: _userId, ...reservation } = event.data;
      held.set(event.data.shiftId, reservation);
    }
  }
  return [...held.values()];
}

describe('a schedule stepped on from any of its states', () => {
  it('holds what its events leave, found by shift and by time alike, whichever state each step began from', () => {
    fc.assert(
      fc.property(
        fc.array(anyEvent(60), { maxLength: 80 }),
        // Later steps, each from a state chosen among all made so far: the newest, or an older one.
        fc.array(fc.tuple(fc.nat(), anyEvent(60)), { maxLength: 60 }),
        fc.boolean(),
        (first, steps, loaded) => {
          // A state of a first load (folded at once), or of steps from the start.
          const start = loaded
            ? foldAtOnce(scheduleDecider.initialState(), first)
            : stepByStep(scheduleDecider.initialState(), first);
          const made: Array<{ state: ScheduleState; events: ScheduleEvent[] }> = [
            { state: start, events: first },
          ];
          for (const [pick, event] of steps) {
            // Half the time the newest state, as the command handler steps.
            const from = pick % 2 === 0 ? made.at(-1)! : made[pick % made.length]!;
            made.push({ state: scheduleDecider.evolve(from.state, event), events: [...from.events, event] });
          }
          for (const { state, events } of made) {
            const { reservations } = state;
            expect(reservations).toEqual(heldAfter(events));
            for (let shift = 0; shift < 60; shift++) {
              const shiftId = `s-${shift}`;
              expect(heldShift(reservations, shiftId)).toBe(reservations.find((r) => r.shiftId === shiftId));
            }
            const from = Date.parse(`${FIRST_DAY}T00:00:00Z`);
            for (let day = 0; day < 62; day += 3) {
              const windowStart = from + day * 24 * HOUR_MS;
              const windowEnd = windowStart + 30 * HOUR_MS;
              expect(ids(heldWithin(reservations, windowStart, windowEnd))).toEqual(
                ids(heldWithin([...reservations], windowStart, windowEnd)),
              );
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
