import type { Principal, View } from '@shiftcover/domain';
import { can } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';

export type { View };

interface Listener {
  principal: Principal;
  send(views: View[]): void;
}

/** Which views an event changes, and for whom: staff hear of what they may see. */
function affected(event: RecordedEvent, who: Principal): View[] {
  const admin = can(who, 'viewPendingApprovals');
  const mine = [
    event.data.userId,
    event.data.toUserId,
    event.data.fromUserId,
    event.data.assignedUserId,
  ].includes(who.userId);
  const views = new Set<View>();
  if (event.streamId.startsWith('shift-')) {
    views.add('shifts').add('stats');
    if (admin) views.add('pending').add('drop-requests');
    if (mine || admin) views.add('my-shifts');
    if (event.type.startsWith('Transfer') && mine) views.add('transfer-requests');
    if (event.type === 'ShiftCompleted' && can(who, 'viewCompletedShifts')) views.add('completed-shifts');
  }
  if (event.streamId.startsWith('user-') && admin) views.add('users');
  if (event.streamId.startsWith('residence-')) views.add('residences');
  if (event.streamId.startsWith('config-')) views.add('config');
  if (
    can(who, 'viewAuditLogs') &&
    !event.streamId.startsWith('schedule-') &&
    !event.streamId.startsWith('unique-')
  ) {
    views.add('audit-logs');
  }
  if (event.streamId.startsWith('shift-') || event.streamId === `inbox-${who.userId}`)
    views.add('notifications');
  return [...views];
}

/** Live change notices for signed-in screens (server-sent events). */
export class LiveHub {
  private listeners = new Set<Listener>();

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  publish(event: RecordedEvent): void {
    for (const listener of this.listeners) {
      const views = affected(event, listener.principal);
      if (views.length) listener.send(views);
    }
  }
}

interface FeedSource {
  readAll(after: bigint, limit: number): Promise<RecordedEvent[]>;
  headPosition(): Promise<bigint>;
}

/**
 * Publishes each event once every read model has applied it, so a screen that refreshes on the
 * notice reads the change. Woken by the projector, and checking twice a second for projectors
 * in other processes.
 */
export class LiveFeed {
  private published = 0n;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly source: FeedSource,
    private readonly caughtUp: () => Promise<bigint>,
    private readonly hub: LiveHub,
  ) {}

  async start(): Promise<void> {
    this.published = await this.source.headPosition();
    // A look that fails (the database out of reach) is simply made again on the next tick.
    this.timer = setInterval(() => void this.wake().catch(() => undefined), 500);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async wake(): Promise<void> {
    if (this.busy || this.hub.size === 0) {
      if (this.hub.size === 0) this.published = await this.caughtUp();
      return;
    }
    this.busy = true;
    try {
      const upTo = await this.caughtUp();
      while (this.published < upTo) {
        const events = await this.source.readAll(this.published, 500);
        const ready = events.filter((e) => e.position <= upTo);
        for (const event of ready) this.hub.publish(event);
        if (ready.length === 0) break;
        this.published = ready.at(-1)!.position;
      }
    } finally {
      this.busy = false;
    }
  }
}
