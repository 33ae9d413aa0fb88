import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';

export type CalendarFeedCommand =
  | { type: 'CreateCalendarFeed'; data: { userId: string; tokenHash: string } }
  | { type: 'RevokeCalendarFeed'; data: { userId: string } };

export type CalendarFeedEvent =
  | { type: 'CalendarFeedCreated'; data: { userId: string; tokenHash: string; at: string } }
  | { type: 'CalendarFeedRevoked'; data: { userId: string; tokenHash: string; at: string } };

/** The digest of the feed's secret address that works now, or null when the person has none. */
interface CalendarFeedState {
  tokenHash: string | null;
}

/** A SHA-256 digest in hex: the only form in which a feed's token is ever recorded. */
const TOKEN_HASH = /^[0-9a-f]{64}$/;

/**
 * A person's private calendar feed (docs/product.md §2.11.1): one address at a time, theirs alone to
 * make or revoke. Making one again replaces the old address, so a leaked link is ended by a new one.
 */
export const calendarFeedDecider: Decider<CalendarFeedCommand, CalendarFeedEvent, CalendarFeedState> = {
  initialState: () => ({ tokenHash: null }),
  decide(command, state, context) {
    const { userId } = command.data;
    if (context.actor.kind !== 'user' || context.actor.userId !== userId) {
      reject('forbidden', 'You can only manage your own calendar feed');
    }
    const at = context.now.toISOString();
    switch (command.type) {
      case 'CreateCalendarFeed':
        if (!TOKEN_HASH.test(command.data.tokenHash)) reject('invalid', 'A feed is recorded by its digest');
        return [{ type: 'CalendarFeedCreated', data: { userId, tokenHash: command.data.tokenHash, at } }];
      case 'RevokeCalendarFeed':
        if (state.tokenHash === null) reject('not_found', 'You have no calendar feed to revoke');
        return [{ type: 'CalendarFeedRevoked', data: { userId, tokenHash: state.tokenHash, at } }];
    }
  },
  evolve(_state, event) {
    return { tokenHash: event.type === 'CalendarFeedCreated' ? event.data.tokenHash : null };
  },
};
