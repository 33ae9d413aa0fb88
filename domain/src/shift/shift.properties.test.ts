import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Actor } from '../shared/decider';
import { aShift } from '../testing/builders';
import { World, type WorldUser } from '../testing/world';
import { easternInstant, intervalsOverlap, nextDate, shiftInterval } from '../time/eastern';
import { isClaimable } from './rules';
import type { ShiftCommand } from './schemas';
import { pendingTransfer, type ShiftState } from './state';

const users: WorldUser[] = [
  { userId: 'staff-1', role: 'staff', superAdmin: false },
  { userId: 'staff-2', role: 'staff', superAdmin: false },
  { userId: 'staff-3', role: 'staff', superAdmin: false },
  { userId: 'admin-1', role: 'admin', superAdmin: false },
  { userId: 'super-1', role: 'admin', superAdmin: true },
  { userId: 'dev-1', role: 'developer', superAdmin: false },
];

/** Shifts around a DST change: overnights, back-to-back shifts, overlaps and the repeated hour. */
const shiftTemplates = [
  { shiftId: 'night-0', day: 0, startTime: '22:00', endTime: '06:00', type: 'Overnight' },
  { shiftId: 'early-1', day: 1, startTime: '05:00', endTime: '13:00', type: 'AM' },
  { shiftId: 'morning-1', day: 1, startTime: '08:00', endTime: '16:00', type: 'AM' },
  { shiftId: 'evening-1', day: 1, startTime: '16:00', endTime: '00:00', type: 'PM' },
  { shiftId: 'night-1', day: 1, startTime: '00:00', endTime: '08:00', type: 'Overnight' },
  { shiftId: 'dst-hour-1', day: 1, startTime: '01:30', endTime: '09:30', type: 'Overnight' },
  { shiftId: 'morning-2', day: 2, startTime: '08:00', endTime: '16:00', type: 'AM' },
] as const;

/** The day before spring-forward (2026-03-08) and before fall-back (2026-11-01). */
const clusters = ['2026-03-07', '2026-10-31'];

type Who = { kind: 'user'; userId: string } | { kind: 'holder' } | { kind: 'recipient' };
type Step =
  | { kind: 'wait'; hours: number }
  | { kind: 'command'; who: Who; shift: number; command: string; extra: number };

const who: fc.Arbitrary<Who> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(...users.map((u) => ({ kind: 'user' as const, userId: u.userId }))),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'holder' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'recipient' as const }) },
);
const commandNames = [
  'ClaimShift',
  'ApproveClaim',
  'DenyClaim',
  'AssignShift',
  'RequestDrop',
  'ApproveDrop',
  'DenyDrop',
  'RequestTransfer',
  'AcceptTransfer',
  'DeclineTransfer',
  'CancelTransfer',
  'MarkUrgent',
  'UpdateShift',
  'DeleteShift',
  'CompleteShift',
  'ExpireShift',
  'ReleaseHolder',
] as const;
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 10 }) }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('command' as const),
      who,
      shift: fc.nat(shiftTemplates.length - 1),
      command: fc.constantFrom(...commandNames),
      extra: fc.nat(20),
    }),
  },
);

const succeeded = new Map<string, number>();
afterAll(() => {
  // The generators must reach the interesting states, or the invariants prove little.
  for (const name of [
    'ClaimShift',
    'ApproveClaim',
    'DenyClaim',
    'AssignShift',
    'RequestDrop',
    'ApproveDrop',
    'RequestTransfer',
    'AcceptTransfer',
    'CompleteShift',
    'ExpireShift',
    'ReleaseHolder',
  ]) {
    expect(succeeded.get(name) ?? 0, `${name} never succeeded`).toBeGreaterThanOrEqual(5);
  }
});

function dateOf(cluster: string, day: number): string {
  let date = cluster;
  for (let i = 0; i < day; i++) date = nextDate(date);
  return date;
}

/** Commands that fit the shift's current state, so random runs reach deep states too. */
function likelyCommands(state: ShiftState): (typeof commandNames)[number][] {
  if (isClaimable(state))
    return ['ClaimShift', 'ClaimShift', 'AssignShift', 'MarkUrgent', 'UpdateShift', 'ExpireShift'];
  if (state.status === 'pending')
    return ['ApproveClaim', 'ApproveClaim', 'DenyClaim', 'AssignShift', 'ExpireShift'];
  if (state.status !== 'approved') return [...commandNames];
  if (state.dropRequested) return ['ApproveDrop', 'DenyDrop'];
  if (pendingTransfer(state))
    return ['AcceptTransfer', 'AcceptTransfer', 'DeclineTransfer', 'CancelTransfer'];
  return [
    'RequestDrop',
    'RequestTransfer',
    'RequestTransfer',
    'CompleteShift',
    'UpdateShift',
    'DeleteShift',
    'ReleaseHolder',
  ];
}

const adminCommands = new Set([
  'ApproveClaim',
  'DenyClaim',
  'AssignShift',
  'ApproveDrop',
  'DenyDrop',
  'MarkUrgent',
  'UpdateShift',
  'DeleteShift',
  'CompleteShift',
  'ExpireShift',
  'ReleaseHolder',
]);
const admins = users.filter((u) => u.role !== 'staff');
const staffMembers = users.filter((u) => u.role === 'staff');

/** A guided step plays the part the command calls for; an unguided one lets anyone try anything. */
function plan(world: World, step: Extract<Step, { kind: 'command' }>): { name: string; actor: Actor } {
  const state = world.shift(shiftTemplates[step.shift]!.shiftId);
  if (step.extra >= 15) return { name: step.command, actor: resolveActor(world, step.who, state) };
  const options = likelyCommands(state);
  const name = options[step.extra % options.length]!;
  if (adminCommands.has(name))
    return { name, actor: world.actorOf(admins[step.extra % admins.length]!.userId) };
  if (name === 'ClaimShift')
    return { name, actor: world.actorOf(staffMembers[step.extra % staffMembers.length]!.userId) };
  const who: Who =
    name === 'AcceptTransfer' || name === 'DeclineTransfer' ? { kind: 'recipient' } : { kind: 'holder' };
  return { name, actor: resolveActor(world, who, state) };
}

function buildCommand(
  world: World,
  step: Extract<Step, { kind: 'command' }>,
  name: string,
  cluster: string,
  transferNo: number,
): ShiftCommand {
  const template = shiftTemplates[step.shift]!;
  const shiftId = template.shiftId;
  const state = world.shift(shiftId);
  const someone =
    (step.extra * 7) % 3 === 0
      ? users[step.extra % users.length]!
      : staffMembers[step.extra % staffMembers.length]!;
  switch (name) {
    case 'AssignShift':
      return { type: 'AssignShift', data: { shiftId, staffId: someone.userId, assigneeRole: someone.role } };
    case 'RequestTransfer':
      return {
        type: 'RequestTransfer',
        data: {
          shiftId,
          transferId: `t-${transferNo}`,
          toUserId: someone.userId,
          recipientRole: someone.role,
          message: null,
        },
      };
    case 'AcceptTransfer':
    case 'DeclineTransfer':
    case 'CancelTransfer': {
      const transfer = pendingTransfer(state) ?? state.transfers.at(-1);
      return { type: name, data: { shiftId, transferId: transfer?.transferId ?? 'none' } };
    }
    case 'ReleaseHolder': {
      // The holder's account is deleted, or (unguided) someone else's, perhaps a transfer's recipient.
      const userId = step.extra % 3 === 0 ? someone.userId : (state.assignedUserId ?? someone.userId);
      return { type: 'ReleaseHolder', data: { shiftId, userId } };
    }
    case 'MarkUrgent':
      return { type: 'MarkUrgent', data: { shiftId, priority: step.extra % 2 ? 'urgent' : 'emergency' } };
    case 'UpdateShift': {
      const other = shiftTemplates[step.extra % shiftTemplates.length]!;
      return {
        type: 'UpdateShift',
        data: aShift({
          shiftId,
          date: dateOf(cluster, other.day),
          startTime: other.startTime,
          endTime: other.endTime,
          type: other.type,
          status: state.priority,
        }),
      };
    }
    default:
      return { type: name, data: { shiftId } } as ShiftCommand;
  }
}

function resolveActor(world: World, who: Who, state: ShiftState): Actor {
  if (who.kind === 'user') return world.actorOf(who.userId);
  const userId = who.kind === 'holder' ? state.assignedUserId : pendingTransfer(state)?.toUserId;
  return world.actorOf(userId ?? 'staff-1');
}

function held(state: ShiftState): boolean {
  return state.exists && !state.deleted && state.assignedUserId !== null && state.status !== 'expired';
}

function checkInvariants(world: World, completedBefore: Map<string, ShiftState>) {
  for (const [shiftId, state] of world.shifts) {
    if (state.status === 'approved') expect(state.assignedUserId !== null && state.approved).toBe(true);
    if (state.approved) expect(state.assignedUserId).not.toBeNull();
    if (state.status === 'pending') expect(state.assignedUserId !== null && state.needsApproval).toBe(true);
    if (state.needsApproval) expect(state.status).toBe('pending');
    expect(state.transfers.filter((t) => t.status === 'pending').length).toBeLessThanOrEqual(1);
    const completed = completedBefore.get(shiftId);
    if (completed) expect(state).toEqual(completed);
  }
  for (const user of users) {
    const mine = [...world.shifts.values()].filter((s) => held(s) && s.assignedUserId === user.userId);
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length; j++) {
        const a = mine[i]!;
        const b = mine[j]!;
        expect(
          intervalsOverlap(
            shiftInterval(a.date, a.startTime, a.endTime),
            shiftInterval(b.date, b.startTime, b.endTime),
          ),
          `${user.userId} holds overlapping ${a.shiftId} and ${b.shiftId}`,
        ).toBe(false);
      }
    }
    const reserved = world
      .schedule(user.userId)
      .reservations.map((r) => r.shiftId)
      .sort();
    expect(reserved).toEqual(mine.map((s) => s.shiftId).sort());
  }
}

describe('shift commands in any order keep every invariant', () => {
  it('holds for random command sequences from random actors around DST changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...clusters),
        fc.array(step, { minLength: 10, maxLength: 60, size: 'max' }),
        (cluster, steps) => {
          const world = new World(users);
          let now = easternInstant(cluster, '09:00');
          for (const template of shiftTemplates) {
            const posted = world.execute(
              {
                type: 'PostShift',
                data: aShift({
                  shiftId: template.shiftId,
                  date: dateOf(cluster, template.day),
                  startTime: template.startTime,
                  endTime: template.endTime,
                  type: template.type,
                }),
              },
              { actor: world.actorOf('admin-1'), now },
            );
            expect(Array.isArray(posted)).toBe(true);
          }
          let transferNo = 0;
          for (const s of steps) {
            if (s.kind === 'wait') {
              now = new Date(now.getTime() + s.hours * 3_600_000);
              continue;
            }
            const completedBefore = new Map([...world.shifts].filter(([, st]) => st.status === 'completed'));
            const { name, actor } = plan(world, s);
            const command = buildCommand(world, s, name, cluster, transferNo++);
            const result = world.execute(command, { actor, now });
            if (Array.isArray(result)) {
              succeeded.set(command.type, (succeeded.get(command.type) ?? 0) + 1);
              const after = world.shift(command.data.shiftId);
              if (result.some((e) => ['ClaimDenied', 'DropApproved', 'HolderRemoved'].includes(e.type))) {
                expect(isClaimable(after)).toBe(true);
              }
            }
            checkInvariants(world, completedBefore);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
