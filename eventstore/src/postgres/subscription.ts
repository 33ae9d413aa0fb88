import type { EventStore, RecordedEvent, Subscription } from '../port';

interface FollowOptions {
  watch: EventStore['watch'];
  pollIntervalMs: number;
  after: bigint;
  readAll: (after: bigint, limit: number) => Promise<RecordedEvent[]>;
  handler: (event: RecordedEvent) => Promise<void>;
}

const BATCH = 500;

/**
 * Catches up from a position, then follows: woken when appended events can be read (see
 * `watchReadable`), and polling as a fallback (a notification can be missed while reconnecting).
 */
export function followAll({ watch, pollIntervalMs, after, readAll, handler }: FollowOptions): Subscription {
  let position = after;
  let stopped = false;
  // Set when a notification arrives while reading, so the wait after that read is skipped.
  let notified = false;
  let wake: (() => void) | undefined;
  const nudge = () => {
    notified = true;
    wake?.();
  };
  const stopWatching = watch(nudge);

  const done = (async () => {
    try {
      while (!stopped) {
        notified = false;
        const batch = await readAll(position, BATCH);
        for (const event of batch) {
          if (stopped) return;
          await handler(event);
          position = event.position;
        }
        if (batch.length === BATCH || notified || stopped) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      await stopWatching();
    }
  })();

  return {
    done,
    async stop() {
      stopped = true;
      nudge();
      await done.catch(() => undefined);
    },
  };
}
