import { expect } from 'vitest';
import type { Actor, CommandContext, Decider } from '../shared/decider';
import { DomainError, type RejectionCode } from '../shared/errors';

/**
 * Specifications in the given / when / then form:
 *   given(shiftDecider, [posted]).when(claim, ctx).thenEmits([claimed])
 */
export function given<C, E, S>(decider: Decider<C, E, S>, history: E[] = []) {
  const state = history.reduce(decider.evolve, decider.initialState());
  return {
    state,
    when(command: C, context: CommandContext) {
      const run = () => decider.decide(command, state, context);
      return {
        thenEmits(expected: E[]): S {
          const events = run();
          expect(events).toEqual(expected);
          return events.reduce(decider.evolve, state);
        },
        thenRejects(code: RejectionCode, message?: string | RegExp): DomainError {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught, `expected a rejection with code ${code}`).toBeInstanceOf(DomainError);
          const rejection = caught as DomainError;
          expect(rejection.code).toBe(code);
          if (message !== undefined) expect(rejection.message).toMatch(message);
          return rejection;
        },
      };
    },
  };
}

export const staffActor = (userId = 'staff-1'): Actor => ({
  kind: 'user',
  userId,
  role: 'staff',
  superAdmin: false,
});
export const adminActor = (userId = 'admin-1'): Actor => ({
  kind: 'user',
  userId,
  role: 'admin',
  superAdmin: false,
});
export const superAdminActor = (userId = 'super-1'): Actor => ({
  kind: 'user',
  userId,
  role: 'admin',
  superAdmin: true,
});
export const developerActor = (userId = 'dev-1'): Actor => ({
  kind: 'user',
  userId,
  role: 'developer',
  superAdmin: false,
});
export const systemActor: Actor = { kind: 'system', name: 'timers' };

/** A command context at an Eastern wall-clock moment, e.g. at('2026-03-05', '09:30', staffActor()). */
export function contextAt(instant: Date, actor: Actor): CommandContext {
  return { actor, now: instant };
}
