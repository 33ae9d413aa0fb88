import type { EventStore, RecordedEvent } from '@shiftcover/eventstore';

/** Where a projector reads the log from: the store itself, or reads shared with other projectors. */
export type LogReader = Pick<EventStore, 'readAll'>;

/**
 * The log as read by several projectors following it together: each batch is read from the store
 * once and handed to the others, which ask for the same batch (the same position, the same size)
 * when they reach it. Only full batches are shared: the store hands out a prefix of the log that
 * never changes afterwards, so a full batch is final, while a short one at the head of the log may
 * have grown by the time another projector asks. A batch is forgotten once every projector has
 * had it, or when more than `keep` batches wait for a projector far behind the others.
 */
export class SharedReads implements LogReader {
  private readonly batches = new Map<string, { events: Promise<RecordedEvent[]>; readers: number }>();

  constructor(
    private readonly store: LogReader,
    private readonly projectors: number,
    private readonly keep = 64,
  ) {}

  async readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const key = `${after}:${limit}`;
    const shared = this.batches.get(key);
    if (shared) {
      shared.readers += 1;
      if (shared.readers >= this.projectors) this.batches.delete(key);
      const events = await shared.events;
      if (events.length === limit) return events;
    }
    return this.read(key, after, limit);
  }

  private async read(key: string, after: bigint, limit: number): Promise<RecordedEvent[]> {
    const batch = { events: this.store.readAll(after, limit), readers: 1 };
    if (this.projectors > 1) this.batches.set(key, batch);
    for (const oldest of this.batches.keys()) {
      if (this.batches.size <= this.keep) break;
      this.batches.delete(oldest);
    }
    const events = await batch.events.catch((error: unknown) => {
      this.forget(key, batch);
      throw error;
    });
    if (events.length < limit) this.forget(key, batch);
    return events;
  }

  private forget(key: string, batch: unknown): void {
    if (this.batches.get(key) === batch) this.batches.delete(key);
  }
}
