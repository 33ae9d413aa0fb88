import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { given, systemActor } from '../testing/specification';
import { now, STAMP } from '../testing/user-fixtures';
import { type UniquenessCommand, uniqueKey, uniquenessDecider } from './uniqueness';

const ctx = { actor: systemActor, now };
const reserve = (ownerId: string, staleOwnerId?: string): UniquenessCommand => ({
  type: 'ReserveValue',
  data: { kind: 'username', ownerId, staleOwnerId },
});
const reserved = (ownerId: string) => ({
  type: 'ValueReserved' as const,
  data: { kind: 'username' as const, ownerId, at: STAMP },
});

describe('unique values', () => {
  it('the first owner gets a free value', () => {
    given(uniquenessDecider)
      .when(reserve('u1'), ctx)
      .thenEmits([reserved('u1')]);
  });

  it('anyone else is told it is taken, in the product guide’s words', () => {
    given(uniquenessDecider, [reserved('u1')])
      .when(reserve('u2'), ctx)
      .thenRejects('username_taken', 'Username already exists');
    given(uniquenessDecider, [reserved('u1')])
      .when({ type: 'ReserveValue', data: { kind: 'residence-name', ownerId: 'r2' } }, ctx)
      .thenRejects('residence_name_taken');
  });

  it('the holder reserving again changes nothing', () => {
    given(uniquenessDecider, [reserved('u1')])
      .when(reserve('u1'), ctx)
      .thenEmits([]);
  });

  it('a holder found never to have existed is taken over', () => {
    given(uniquenessDecider, [reserved('ghost')])
      .when(reserve('u2', 'ghost'), ctx)
      .thenEmits([reserved('u2')]);
  });

  it('a released value is free again; only the holder can release', () => {
    const released = {
      type: 'ValueReleased' as const,
      data: { kind: 'username' as const, ownerId: 'u1', at: STAMP },
    };
    given(uniquenessDecider, [reserved('u1')])
      .when({ type: 'ReleaseValue', data: { kind: 'username', ownerId: 'u2' } }, ctx)
      .thenEmits([]);
    given(uniquenessDecider, [reserved('u1'), released])
      .when(reserve('u2'), ctx)
      .thenEmits([reserved('u2')]);
  });

  it('compares values without case or surrounding spaces', () => {
    expect(uniqueKey('username', ' Jordan ')).toBe(uniqueKey('username', 'jordan'));
  });

  it('random reserve and release sequences never leave two holders', () => {
    const owners = ['a', 'b', 'c'];
    const command = fc.record({ release: fc.boolean(), owner: fc.constantFrom(...owners) });
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40, size: 'max' }), (commands) => {
        let state = uniquenessDecider.initialState();
        const holders = new Set<string>();
        for (const c of commands) {
          const type = c.release ? 'ReleaseValue' : 'ReserveValue';
          try {
            const events = uniquenessDecider.decide(
              { type, data: { kind: 'email', ownerId: c.owner } },
              state,
              ctx,
            );
            for (const e of events) {
              if (e.type === 'ValueReserved') holders.add(e.data.ownerId);
              else holders.delete(e.data.ownerId);
            }
            state = events.reduce(uniquenessDecider.evolve, state);
          } catch {
            expect(state.ownerId).not.toBe(c.owner);
          }
          expect(holders.size).toBeLessThanOrEqual(1);
          expect(state.ownerId === null ? 0 : 1).toBe(holders.size);
        }
      }),
      { numRuns: 500 },
    );
  });
});
