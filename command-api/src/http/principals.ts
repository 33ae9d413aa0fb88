import { type Principal, userDecider } from '@shiftcover/domain';
import { type CommandHandler, Recent } from '@shiftcover/eventstore';
import type { PrincipalLookup } from '@shiftcover/platform';
import { streams } from '../streams';

/** How many signed-in users are remembered (the least recently seen is forgotten first). */
const REMEMBERED_USERS = 10_000;

interface Known {
  revision: bigint;
  lastEventId: string;
  principal: Principal | null;
}

/**
 * Who a user is for permission checks (role, super admin) as of their stream now, without opening
 * their personal data on every request: what was folded is remembered with the stream's last
 * event, and each call only checks that no event has been added since (one short read, shared with the other
 * requests asking at that moment). A role
 * change, a deletion or any other event on the stream is therefore seen on the very next request,
 * from whichever process wrote it.
 */
export class Principals implements PrincipalLookup {
  private readonly known = new Recent<string, Known>(REMEMBERED_USERS);

  constructor(private readonly handler: CommandHandler) {}

  /** The active user's principal, or null for an unknown or deleted one. */
  async of(userId: string): Promise<Principal | null> {
    const streamId = streams.user(userId);
    const known = this.known.get(userId);
    if (known && (await this.handler.endsWith(streamId, known.revision, known.lastEventId))) {
      return known.principal;
    }
    const { state, revision, lastEventId } = await this.handler.load(streamId, userDecider);
    const principal =
      state.status === 'active'
        ? { userId: state.userId, role: state.role, superAdmin: state.superAdmin }
        : null;
    if (lastEventId && revision !== 'no_stream') {
      this.known.set(userId, { revision, lastEventId, principal });
    }
    return principal;
  }
}
