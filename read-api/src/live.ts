import type { ChangeNotice, Principal, View } from '@shiftcover/domain';
import { can, categoryOf } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { type NoticeRecipients, noticeRecipients } from '@shiftcover/projections';

export type { View };

interface Listener {
  principal: Principal;
  /** The session the stream was opened in (its `sessionKey`): the stream ends with it. */
  session: string;
  send(notice: ChangeNotice): void;
  /** Ends the stream. */
  close(): void;
}

export interface LiveLimits {
  /** Open streams per user: a few tabs and devices. */
  perUser: number;
  /** Open streams in this process. */
  total: number;
}

/** Where streams learn that their sessions ended: the session store. */
export interface SessionEnds {
  live(keys: string[]): Promise<Set<string>>;
  watchEnded(onEnded: (key: string) => void): Promise<() => Promise<void>>;
}

/**
 * Whose notifications the event writes or changes, worked out once for every listener. An event
 * whose data cannot be read so tells everyone's bell: a bell asked once too often costs less than
 * a feed that stops at the event.
 */
export function recipientsOf(event: RecordedEvent): NoticeRecipients {
  try {
    return noticeRecipients(event);
  } catch {
    return { staff: true, admins: true, people: [] };
  }
}

/**
 * Which views an event changes, and for whom: staff hear of what they may see. `to` is the
 * event's `recipientsOf`, when the caller has it already.
 */
export function affected(event: RecordedEvent, who: Principal, to = recipientsOf(event)): View[] {
  const admin = can(who, 'viewPendingApprovals');
  // Every person whose schedule the event changes: the claimant, holder, sender or recipient, the
  // holder an assignment replaced, the claimant of a shift that ended unfilled.
  const mine = [
    event.data.userId,
    event.data.toUserId,
    event.data.fromUserId,
    event.data.assignedUserId,
    event.data.previousUserId,
    event.data.pendingUserId,
  ].includes(who.userId);
  const views = new Set<View>();
  const category = categoryOf(event.streamId);
  if (category === 'shift') {
    views.add('shifts').add('stats');
    if (admin) views.add('pending').add('drop-requests');
    // An edit does not name the shift's holder: whoever holds it, their schedule may have moved.
    if (mine || admin || event.type === 'ShiftUpdated') views.add('my-shifts');
    if (event.type.startsWith('Transfer') && mine) views.add('transfer-requests');
    if (event.type === 'ShiftCompleted' && can(who, 'viewCompletedShifts')) views.add('completed-shifts');
  }
  if (category === 'user' && admin) views.add('users');
  if (category === 'residence') views.add('residences');
  if (category === 'config') views.add('config');
  // A person's credentials and time off are theirs and their admins' to see (docs/product.md §10).
  const personal = category === 'schedule' && (admin || event.data.userId === who.userId);
  if (personal && event.type.startsWith('Credential')) views.add('credentials');
  // The pending claims are ranked on the claimants' credentials.
  if (admin && personal && event.type.startsWith('Credential')) views.add('pending');
  if (personal && event.type.startsWith('TimeOff')) views.add('time-off');
  // Of a schedule's events, the audit log keeps the credentials and time off, not the reservations.
  const audited =
    category !== 'schedule' || event.type.startsWith('Credential') || event.type.startsWith('TimeOff');
  if (can(who, 'viewAuditLogs') && audited && category !== 'unique') views.add('audit-logs');
  if (toldOf(to, who)) views.add('notifications');
  return [...views];
}

/** Whether `who` is among the event's recipients: only then has their bell news. */
function toldOf(to: NoticeRecipients, who: Principal): boolean {
  return (
    to.people.includes(who.userId) ||
    (to.staff && who.role === 'staff') ||
    (to.admins && who.role === 'admin')
  );
}

/**
 * Live change notices for signed-in screens (server-sent events). Streams are capped per user
 * and in all, and none outlives its session: signing out, expiry, a password change elsewhere or
 * the user's deletion ends it.
 */
export class LiveHub {
  private listeners = new Set<Listener>();
  private readonly limits: LiveLimits;
  private sweeper: NodeJS.Timeout | undefined;
  private unwatch: (() => Promise<void>) | undefined;

  constructor(limits: Partial<LiveLimits> = {}) {
    this.limits = { perUser: 5, total: 1_000, ...limits };
  }

  /** Adds a stream: how to remove it, or why it is refused when a cap is reached. */
  add(listener: Listener): { remove: () => void } | { refused: string } {
    if (this.listeners.size >= this.limits.total) {
      return { refused: 'Too many live connections right now. Please try again in a moment.' };
    }
    const own = [...this.listeners].filter((l) => l.principal.userId === listener.principal.userId);
    if (own.length >= this.limits.perUser) {
      return {
        refused: `You already have ${this.limits.perUser} live connections open. Close another tab and try again.`,
      };
    }
    this.listeners.add(listener);
    return { remove: () => this.listeners.delete(listener) };
  }

  /**
   * Ends streams whose sessions end: at once on the store's notice, and by a look at every open
   * session each `sweepMs` for those that expired or whose notice was missed.
   */
  async watchSessions(sessions: SessionEnds, sweepMs = 60_000): Promise<void> {
    this.unwatch = await sessions.watchEnded((key) => this.endWhere((l) => l.session === key));
    this.sweeper = setInterval(() => void this.sweep(sessions).catch(() => undefined), sweepMs);
    this.sweeper.unref();
  }

  /** Stops watching sessions and ends every stream. */
  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    // The listening connection may already be gone with the pool; there is nothing left to undo.
    await this.unwatch?.().catch(() => undefined);
    this.endWhere(() => true);
  }

  private async sweep(sessions: SessionEnds): Promise<void> {
    if (this.listeners.size === 0) return;
    const live = await sessions.live([...new Set([...this.listeners].map((l) => l.session))]);
    this.endWhere((l) => !live.has(l.session));
  }

  private endWhere(test: (listener: Listener) => boolean): void {
    for (const listener of this.listeners) {
      if (!test(listener)) continue;
      this.listeners.delete(listener);
      listener.close();
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  /**
   * Tells each listener once of everything these events, read together, change for it: under a
   * burst of changes a screen is asked to refresh once per read of the log, not once per event.
   */
  publish(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type === 'UserDeleted') this.endWhere((l) => l.principal.userId === event.data.userId);
    }
    const recipients = events.map(recipientsOf);
    for (const listener of this.listeners) {
      const views = new Set<View>();
      const shifts = new Set<string>();
      for (const [i, event] of events.entries()) {
        const changed = affected(event, listener.principal, recipients[i]);
        for (const view of changed) views.add(view);
        if (changed.includes('shifts') && typeof event.data.shiftId === 'string')
          shifts.add(event.data.shiftId);
      }
      if (views.size > 0) listener.send({ views: [...views], shifts: [...shifts] });
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
  /** Woken while busy: the pass under way may have looked before the news it was woken for. */
  private again = false;

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

  /**
   * Publishes what every read model has applied since the last pass. A wake that comes during a
   * pass makes it look once more when it ends, rather than leave the news for the next tick.
   */
  async wake(): Promise<void> {
    if (this.hub.size === 0) {
      this.published = await this.caughtUp();
      return;
    }
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        await this.publishUpTo(await this.caughtUp());
      } while (this.again);
    } finally {
      this.busy = false;
    }
  }

  private async publishUpTo(upTo: bigint): Promise<void> {
    while (this.published < upTo) {
      const events = await this.source.readAll(this.published, 500);
      const ready = events.filter((e) => e.position <= upTo);
      this.hub.publish(ready);
      if (ready.length === 0) break;
      this.published = ready.at(-1)!.position;
    }
  }
}
