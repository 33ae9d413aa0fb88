import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { aShift } from '../testing/builders';
import { World, type WorldUser } from '../testing/world';
import { easternInstant, nextDate, shiftInterval } from '../time/eastern';
import { coversUntil } from './checks';
import { whatIf } from './what-if';
import type { VersionedRules } from './working-time';

const staffIds = ['staff-1', 'staff-2', 'staff-3'];
const users: WorldUser[] = [
  ...staffIds.map((userId) => ({ userId, role: 'staff' as const, superAdmin: false })),
  { userId: 'admin-1', role: 'admin', superAdmin: false },
];
const credentialNames = ['CPR', 'Driver'];

/** Eleven days from a Thursday across the spring-forward Sunday: two weeks, overnights, close turns. */
const FIRST_DAY = '2026-03-05';
const times = [
  ['07:00', '15:00'],
  ['15:00', '23:00'],
  ['22:00', '06:00'],
  ['05:00', '17:00'],
] as const;
const shifts = Array.from({ length: 22 }, (_, i) => ({
  shiftId: `s-${i}`,
  day: i % 11,
  time: times[i % times.length]!,
  requiredCredentials: credentialNames.filter((_, n) => (i >> n) % 3 === 0),
}));
const expiries = [null, '2026-03-07', '2026-03-10', '2026-03-31'];

type Step =
  | {
      kind: 'claim' | 'assign' | 'approve' | 'offer' | 'accept' | 'drop';
      shift: number;
      who: number;
      override: boolean;
    }
  | { kind: 'credential'; who: number; name: number; expiry: number }
  | { kind: 'uncredential'; who: number; name: number }
  | { kind: 'timeOff'; who: number; day: number; days: number };

const step = (overrides: boolean): fc.Arbitrary<Step> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constantFrom('claim', 'claim', 'assign', 'approve', 'offer', 'accept', 'drop'),
        shift: fc.nat(shifts.length - 1),
        who: fc.nat(staffIds.length - 1),
        override: overrides ? fc.boolean() : fc.constant(false),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('credential' as const),
        who: fc.nat(staffIds.length - 1),
        name: fc.nat(credentialNames.length - 1),
        expiry: fc.nat(expiries.length - 1),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('uncredential' as const),
        who: fc.nat(staffIds.length - 1),
        name: fc.nat(credentialNames.length - 1),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('timeOff' as const),
        who: fc.nat(staffIds.length - 1),
        day: fc.nat(10),
        days: fc.nat(2),
      }),
    },
  );

const rulesArbitrary: fc.Arbitrary<VersionedRules> = fc.record({
  minRestHours: fc.integer({ min: 0, max: 12 }),
  maxHoursPerWeek: fc.integer({ min: 16, max: 48 }),
  maxConsecutiveDays: fc.integer({ min: 1, max: 4 }),
  version: fc.nat(5),
});

const refusedBy = new Map<string, number>();
afterAll(() => {
  // Every rule must be met and refused often, or the properties prove little.
  for (const code of [
    'missing_credential',
    'unavailable',
    'rest_too_short',
    'weekly_hours_exceeded',
    'too_many_consecutive_days',
    'credential_in_use',
  ]) {
    expect(refusedBy.get(code) ?? 0, `${code} was never refused`).toBeGreaterThanOrEqual(3);
  }
});

const now = easternInstant('2026-03-01', '09:00');
const dateAfter = (date: string, days: number) => {
  let d = date;
  for (let i = 0; i < days; i++) d = nextDate(d);
  return d;
};

function run(world: World, steps: Step[]) {
  const admin = { actor: world.actorOf('admin-1'), now };
  for (const [n, s] of steps.entries()) {
    const userId = staffIds[s.who]!;
    const person = { actor: world.actorOf(userId), now };
    let refusal: { code: string } | undefined;
    switch (s.kind) {
      case 'credential':
        refusal = world.record(
          {
            type: 'RecordCredential',
            data: {
              userId,
              credentialId: `c-${n}`,
              name: credentialNames[s.name]!,
              expiresOn: expiries[s.expiry]!,
            },
          },
          admin,
        );
        break;
      case 'uncredential': {
        const held = world.schedule(userId).credentials.find((c) => c.name === credentialNames[s.name]);
        if (held)
          refusal = world.record(
            { type: 'RemoveCredential', data: { userId, credentialId: held.credentialId } },
            admin,
          );
        break;
      }
      case 'timeOff': {
        const startDate = dateAfter(FIRST_DAY, s.day);
        refusal = world.record(
          {
            type: 'RecordTimeOff',
            data: {
              userId,
              timeOffId: `off-${n}`,
              startDate,
              endDate: dateAfter(startDate, s.days),
              note: null,
            },
          },
          person,
        );
        break;
      }
      default: {
        const shiftId = shifts[s.shift]!.shiftId;
        const state = world.shift(shiftId);
        const holder = state.assignedUserId ? { actor: world.actorOf(state.assignedUserId), now } : person;
        const transfer = state.transfers.find((t) => t.status === 'pending');
        const result =
          s.kind === 'claim'
            ? world.execute({ type: 'ClaimShift', data: { shiftId } }, person)
            : s.kind === 'assign'
              ? world.execute(
                  {
                    type: 'AssignShift',
                    data: {
                      shiftId,
                      staffId: userId,
                      assigneeRole: 'staff',
                      ...(s.override ? { override: { reason: 'Short staffed' } } : {}),
                    },
                  },
                  admin,
                )
              : s.kind === 'approve'
                ? world.execute({ type: 'ApproveClaim', data: { shiftId } }, admin)
                : s.kind === 'offer'
                  ? world.execute(
                      {
                        type: 'RequestTransfer',
                        data: {
                          shiftId,
                          transferId: `t-${n}`,
                          toUserId: userId,
                          recipientRole: 'staff',
                          message: null,
                        },
                      },
                      holder,
                    )
                  : s.kind === 'accept'
                    ? world.execute(
                        {
                          type: 'AcceptTransfer',
                          data: { shiftId, transferId: transfer?.transferId ?? 'none' },
                        },
                        transfer ? { actor: world.actorOf(transfer.toUserId), now } : person,
                      )
                    : world.execute({ type: 'RequestDrop', data: { shiftId } }, holder);
        if (!Array.isArray(result)) refusal = result;
        if (s.kind === 'drop' && Array.isArray(result))
          world.execute({ type: 'ApproveDrop', data: { shiftId } }, admin);
      }
    }
    if (refusal) refusedBy.set(refusal.code, (refusedBy.get(refusal.code) ?? 0) + 1);
    checkCredentials(world);
  }
}

/** No one holds a shift, claimed or approved, without each credential it requires, valid to its end. */
function checkCredentials(world: World) {
  for (const state of world.shifts.values()) {
    if (state.assignedUserId === null) continue;
    const { end } = shiftInterval(state.date, state.startTime, state.endTime);
    const credentials = world.schedule(state.assignedUserId).credentials;
    for (const name of state.requiredCredentials) {
      expect(
        credentials.some((c) => c.name === name && coversUntil(c, end)),
        `${state.assignedUserId} holds ${state.shiftId} without ${name}`,
      ).toBe(true);
    }
  }
}

function heldTimes(world: World) {
  return new Map(staffIds.map((userId) => [userId, world.schedule(userId).reservations]));
}

function postAll(world: World) {
  for (const shift of shifts) {
    world.execute(
      {
        type: 'PostShift',
        data: aShift({
          shiftId: shift.shiftId,
          date: dateAfter(FIRST_DAY, shift.day),
          startTime: shift.time[0],
          endTime: shift.time[1],
          requiredCredentials: shift.requiredCredentials,
        }),
      },
      { actor: world.actorOf('admin-1'), now },
    );
  }
}

const period = { from: easternInstant(FIRST_DAY, '00:00'), until: easternInstant('2026-03-20', '00:00') };

describe('the safety rules in any order of commands', () => {
  it('no holder ever lacks a required, unexpired credential; no one breaks a working-time rule but by a recorded override', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.array(step(true), { minLength: 20, maxLength: 80 }), (rules, steps) => {
        const world = new World(users, rules);
        postAll(world);
        run(world, steps);
        const report = whatIf(heldTimes(world), rules, period.from, period.until);
        for (const violation of report.violations) {
          const overridden = world
            .schedule(violation.userId)
            .reservations.flatMap((r) => r.override?.breaches ?? [])
            .map((b) => b.code);
          expect(overridden, `${violation.userId}: ${violation.message}`).toContain(violation.code);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a what-if with the rules in force over a history built under them finds nothing', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.array(step(false), { minLength: 20, maxLength: 80 }), (rules, steps) => {
        const world = new World(users, rules);
        postAll(world);
        run(world, steps);
        expect(whatIf(heldTimes(world), rules, period.from, period.until).violations).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
