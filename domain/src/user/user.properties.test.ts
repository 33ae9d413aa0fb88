import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canCreateUser, canDeleteUser, canEditUser, canResetPassword } from '../permissions/permissions';
import type { Actor, Role } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { now, personalOf, registration } from '../testing/user-fixtures';
import { type UserCommand, type UserEvent, type UserState, userDecider } from './user';

const accounts = ['u1', 'u2', 'u3', 'u4'];
const roles: Role[] = ['staff', 'admin', 'developer'];
const actor = fc.record({
  userId: fc.constantFrom(...accounts),
  role: fc.constantFrom(...roles),
  superAdmin: fc.boolean(),
});
const command = fc.record({
  kind: fc.constantFrom('register', 'update', 'reset', 'delete', 'own', 'assign', 'preference'),
  target: fc.constantFrom(...accounts),
  role: fc.constantFrom(...roles),
  flag: fc.boolean(),
});

function toCommand(c: { kind: string; target: string; role: Role; flag: boolean }): UserCommand {
  const userId = c.target;
  switch (c.kind) {
    case 'register':
      return { type: 'RegisterUser', data: registration(userId, c.role, c.flag) };
    case 'update': {
      const { username, email, firstName, lastName, notificationEmail } = personalOf(userId);
      return {
        type: 'UpdateUser',
        data: {
          userId,
          role: c.role,
          superAdmin: c.flag,
          personal: { username, email, firstName, lastName, notificationEmail },
        },
      };
    }
    case 'reset':
      return { type: 'ResetPassword', data: { userId, newPasswordHash: 'scrypt$x' } };
    case 'delete':
      return { type: 'DeleteUser', data: { userId } };
    case 'own':
      return {
        type: 'ChangeOwnPassword',
        data: { userId, currentPasswordMatches: c.flag, newPasswordHash: 'scrypt$y' },
      };
    case 'assign':
      return { type: 'AssignResidence', data: { userId, residenceId: 'r1' } };
    default:
      return { type: 'SetNotificationPreference', data: { userId, enabled: c.flag } };
  }
}

const shred = (event: UserEvent): UserEvent =>
  'personal' in event.data ? ({ ...event, data: { ...event.data, personal: null } } as UserEvent) : event;

describe('user commands in any order', () => {
  it('keep the account rules of docs/product.md §6', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(actor, command), { minLength: 1, maxLength: 40, size: 'max' }),
        (steps) => {
          const states = new Map<string, UserState>();
          const histories = new Map<string, UserEvent[]>();
          for (const [who, c] of steps) {
            const principal = { ...who, superAdmin: who.role === 'admin' && who.superAdmin };
            const acting: Actor = { kind: 'user', ...principal };
            const cmd = toCommand(c);
            const before = states.get(c.target) ?? userDecider.initialState();
            let events: UserEvent[];
            try {
              events = userDecider.decide(cmd, before, { actor: acting, now });
            } catch (error) {
              expect(error).toBeInstanceOf(DomainError);
              continue;
            }
            const target = { userId: before.userId, role: before.role, superAdmin: before.superAdmin };
            expect(before.status === 'deleted', 'a deleted user never changes').toBe(false);
            if (cmd.type === 'RegisterUser')
              expect(
                canCreateUser(principal, {
                  role: cmd.data.role,
                  superAdmin: cmd.data.role === 'admin' && cmd.data.superAdmin,
                }),
              ).toBe(true);
            if (cmd.type === 'DeleteUser')
              expect(principal.userId !== c.target && canDeleteUser(principal, target)).toBe(true);
            if (cmd.type === 'ResetPassword')
              expect(principal.userId !== c.target && canResetPassword(principal, target)).toBe(true);
            if (cmd.type === 'UpdateUser' && principal.userId !== c.target)
              expect(canEditUser(principal, target)).toBe(true);
            if (cmd.type === 'ChangeOwnPassword')
              expect(principal.userId === c.target && cmd.data.currentPasswordMatches).toBe(true);
            const after = events.reduce(userDecider.evolve, before);
            if (after.superAdmin) expect(after.role).toBe('admin');
            states.set(c.target, after);
            histories.set(c.target, [...(histories.get(c.target) ?? []), ...events]);
          }
          for (const history of histories.values()) {
            const replayed = history.map(shred).reduce(userDecider.evolve, userDecider.initialState());
            expect(replayed.personal).toBeNull();
            expect(replayed.erased).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A population of accounts, each acting with the role and flag its own stream holds at the time. */
const population = fc.array(fc.record({ role: fc.constantFrom(...roles), superAdmin: fc.boolean() }), {
  minLength: 2,
  maxLength: 5,
});
const move = fc.record({
  actor: fc.nat(),
  target: fc.nat(),
  kind: fc.constantFrom('update', 'reset', 'delete'),
  role: fc.constantFrom(...roles),
  flag: fc.boolean(),
});

describe('no one takes over a peer', () => {
  it('super admins and developers at the start are demoted, reset or deleted only by a developer or themselves', () => {
    fc.assert(
      fc.property(population, fc.array(move, { maxLength: 40 }), (people, moves) => {
        const ids = people.map((_, i) => `p${i}`);
        const states = new Map<string, UserState>();
        people.forEach(({ role, superAdmin }, i) => {
          const events = userDecider.decide(
            { type: 'RegisterUser', data: registration(ids[i]!, role, superAdmin) },
            userDecider.initialState(),
            { actor: { kind: 'system', name: 'setup' }, now },
          );
          states.set(ids[i]!, events.reduce(userDecider.evolve, userDecider.initialState()));
        });
        // Accounts whose powers the matrix keeps out of every non-developer's reach.
        const protectedIds = new Set(
          ids.filter((id) => states.get(id)!.superAdmin || states.get(id)!.role === 'developer'),
        );
        for (const m of moves) {
          const by = states.get(ids[m.actor % ids.length]!)!;
          const before = states.get(ids[m.target % ids.length]!)!;
          if (by.status !== 'active') continue;
          const acting: Actor = { kind: 'user', userId: by.userId, role: by.role, superAdmin: by.superAdmin };
          const command = toCommand({ kind: m.kind, target: before.userId, role: m.role, flag: m.flag });
          let events: UserEvent[];
          try {
            events = userDecider.decide(command, before, { actor: acting, now });
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            continue;
          }
          const after = events.reduce(userDecider.evolve, before);
          const demoted = after.role !== before.role || after.superAdmin !== before.superAdmin;
          const touched =
            demoted || events.some((e) => e.type === 'PasswordReset' || e.type === 'UserDeleted');
          const trusted = by.role === 'developer' || by.userId === before.userId;
          if (protectedIds.has(before.userId) && touched) {
            expect(trusted, `${by.userId} (${by.role}) took over ${before.userId}`).toBe(true);
            if (demoted) protectedIds.delete(before.userId);
          }
          states.set(before.userId, after);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
