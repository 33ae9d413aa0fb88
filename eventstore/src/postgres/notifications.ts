import type { Sql } from 'postgres';

export const NOTIFY_CHANNEL = 'shiftcover_events';

/** The first and the longest wait before looking again for events held back by a transaction. */
const FIRST_RECHECK_MS = 2;
const LONGEST_RECHECK_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The least time between the starts of two notifications. Followers gather announcements for
 * longer than this anyway (`readableDoorbell`), so spacing them costs a follower at most this much;
 * sent back to back, a busy writer's notifications are a second stream of statements that the
 * database serves between its appends, and one writer's slowest appends were seen to take
 * half again as long for them.
 */
export const ANNOUNCE_SPACING_MS = 2;

/**
 * Sends the notification after an append committed, never inside it: a NOTIFY in the append's
 * transaction would make every commit queue for the notification queue's lock. The first append
 * after a quiet spell is told at once; those that finish while one is in flight or within
 * `spacingMs` of its start are told together by one more, sent once that time has passed.
 */
export function appendAnnouncer(sql: Sql, spacingMs = ANNOUNCE_SPACING_MS) {
  let sending: Promise<void> | undefined;
  let more = false;

  async function send() {
    do {
      more = false;
      const started = performance.now();
      // A lost notification delays followers until they poll; it does not fail the append.
      await sql`select pg_notify(${NOTIFY_CHANNEL}, '')`.catch(() => undefined);
      const spacing = started + spacingMs - performance.now();
      if (spacing > 0) await sleep(spacing);
    } while (more);
    sending = undefined;
  }

  return {
    announce(): void {
      if (sending) more = true;
      else sending = send();
    },
    /** Resolves once no notification is in flight or waiting. */
    settled: (): Promise<void> => sending ?? Promise.resolve(),
  };
}

interface Horizon {
  /** Events below this position are readable (see `eventstore_read_horizon`). */
  below: bigint;
  /** Whether committed events wait at or above it, held back by a transaction still running. */
  pending: boolean;
}

/**
 * Whether events wait is whether the last committed one is at or above the horizon: one step down
 * the primary key from its end whatever the log's size. (Asked as `exists` an event at or above it,
 * a connection that first asked while the log was small kept a plan scanning the whole table.)
 */
export async function readHorizon(sql: Sql): Promise<Horizon> {
  const [row] = await sql<{ below: bigint; pending: boolean }[]>`
    select h.below, coalesce((select max(position) from events) >= h.below, false) as pending
    from (select eventstore_read_horizon() as below) h`;
  return { below: BigInt(row!.below), pending: row!.pending };
}

/**
 * The store's doorbell: calls every listener once events announced since the last call can be
 * read. One listens and looks for every follower of the store, so an append costs one look, not
 * one per follower. It gathers for `gatherMs` after the first announcement before it looks, so
 * that followers woken by a busy log read many events a round instead of one each (a reader
 * waiting for its own write hurries its follower itself, see the projection runner). An announced
 * event can still sit above the read horizon, held back by an older transaction that has not ended
 * (a projector's write, another append committing); then the horizon is looked at again after a
 * short, growing wait and the listeners called as soon as it moved, so a follower waits for that
 * transaction and not for its poll interval. It also looks once for each new follower, for one that
 * starts while events are held back.
 */
export function readableDoorbell(sql: Sql, gatherMs: number) {
  const listeners = new Set<() => void>();
  let rang = false;
  let checking: Promise<void> | undefined;
  let gathering: NodeJS.Timeout | undefined;
  let listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;

  const ringAll = () => {
    for (const listener of [...listeners]) listener();
  };

  async function check() {
    let last: bigint | undefined;
    let wait = FIRST_RECHECK_MS;
    while (listeners.size > 0) {
      const announced = rang;
      rang = false;
      let horizon: Horizon;
      try {
        horizon = await readHorizon(sql);
      } catch {
        // The followers read, meet the same failure and handle it; a later notification retries.
        ringAll();
        break;
      }
      if (announced || (last !== undefined && horizon.below > last)) {
        ringAll();
        wait = FIRST_RECHECK_MS;
      }
      last = horizon.below;
      if (horizon.pending) {
        await sleep(wait);
        wait = Math.min(wait * 2, LONGEST_RECHECK_MS);
      } else break;
    }
    checking = undefined;
    // Announced while looking: looked at again after the usual gathering.
    if (rang && listeners.size > 0) ring();
  }

  // Only for followers: a look made with none (a notification heard after the last one left,
  // before its LISTEN ended) would end before `checking` was set, and leave it set for good, the
  // doorbell deaf to every later follower.
  function look() {
    if (checking || listeners.size === 0) return;
    checking = check();
  }

  function ring() {
    rang = true;
    if (checking || gathering) return;
    if (gatherMs <= 0) return look();
    gathering = setTimeout(() => {
      gathering = undefined;
      look();
    }, gatherMs);
  }

  return {
    watch(listener: () => void): () => Promise<void> {
      listeners.add(listener);
      listening ??= sql.listen(NOTIFY_CHANNEL, ring).catch(() => undefined);
      look();
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        listeners.delete(listener);
        if (listeners.size > 0) return;
        clearTimeout(gathering);
        gathering = undefined;
        const listened = listening;
        listening = undefined;
        await (await listened)?.unlisten().catch(() => undefined);
        await checking;
      };
    },
  };
}
