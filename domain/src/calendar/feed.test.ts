import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { adminActor, given, staffActor } from '../testing/specification';
import { now, STAMP } from '../testing/user-fixtures';
import { type CalendarFeedCommand, type CalendarFeedEvent, calendarFeedDecider } from './feed';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const own: CommandContext = { actor: staffActor('u1'), now };
const created = (tokenHash: string): CalendarFeedEvent => ({
  type: 'CalendarFeedCreated',
  data: { userId: 'u1', tokenHash, at: STAMP },
});

describe('a person’s calendar feed', () => {
  it('is made by its owner and recorded by the digest of its address only', () => {
    given(calendarFeedDecider)
      .when({ type: 'CreateCalendarFeed', data: { userId: 'u1', tokenHash: HASH_A } }, own)
      .thenEmits([created(HASH_A)]);
  });

  it('is replaced by making it again, and revoking names the address that ends', () => {
    const state = given(calendarFeedDecider, [created(HASH_A)])
      .when({ type: 'CreateCalendarFeed', data: { userId: 'u1', tokenHash: HASH_B } }, own)
      .thenEmits([created(HASH_B)]);
    expect(state.tokenHash).toBe(HASH_B);
    given(calendarFeedDecider, [created(HASH_A), created(HASH_B)])
      .when({ type: 'RevokeCalendarFeed', data: { userId: 'u1' } }, own)
      .thenEmits([{ type: 'CalendarFeedRevoked', data: { userId: 'u1', tokenHash: HASH_B, at: STAMP } }]);
  });

  it('refuses a revoke when there is no feed, and anyone but the owner', () => {
    given(calendarFeedDecider)
      .when({ type: 'RevokeCalendarFeed', data: { userId: 'u1' } }, own)
      .thenRejects('not_found', 'You have no calendar feed to revoke');
    given(calendarFeedDecider, [created(HASH_A)])
      .when({ type: 'RevokeCalendarFeed', data: { userId: 'u1' } }, { actor: adminActor(), now })
      .thenRejects('forbidden');
    given(calendarFeedDecider)
      .when(
        { type: 'CreateCalendarFeed', data: { userId: 'u1', tokenHash: HASH_A } },
        { actor: { kind: 'system', name: 'timers' }, now },
      )
      .thenRejects('forbidden');
  });

  it('refuses to record anything but a digest', () => {
    given(calendarFeedDecider)
      .when({ type: 'CreateCalendarFeed', data: { userId: 'u1', tokenHash: 'the-token-itself' } }, own)
      .thenRejects('invalid');
  });

  it('works at the address made last, unless revoked since, whatever the owner does', () => {
    const command = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{64}$/).map(
        (tokenHash): CalendarFeedCommand => ({
          type: 'CreateCalendarFeed',
          data: { userId: 'u1', tokenHash },
        }),
      ),
      fc.constant<CalendarFeedCommand>({ type: 'RevokeCalendarFeed', data: { userId: 'u1' } }),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 20 }), (commands) => {
        let state = calendarFeedDecider.initialState();
        let expected: string | null = null;
        for (const c of commands) {
          let events: CalendarFeedEvent[] = [];
          try {
            events = calendarFeedDecider.decide(c, state, own);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            expect(c.type === 'RevokeCalendarFeed' && expected === null).toBe(true);
          }
          state = events.reduce(calendarFeedDecider.evolve, state);
          if (events.length > 0) expected = c.type === 'CreateCalendarFeed' ? c.data.tokenHash : null;
          expect(state.tokenHash).toBe(expected);
        }
      }),
    );
  });
});
