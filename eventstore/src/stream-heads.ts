import type { EventStore, StreamHead } from './port';

/** The most streams asked about in one read. */
const MOST_PER_READ = 500;

interface Asker {
  resolve(head: StreamHead | undefined): void;
  reject(error: unknown): void;
}

/**
 * Where streams end now, asked for together. The streams asked about while a read is on its way
 * are read in one go as soon as it is back, so a busy server makes one short read for many
 * requests instead of one each, and an idle one reads at once. Every answer comes from a read that
 * started after it was asked for, so it is as fresh as a read of its own: an event appended before
 * the question, by any process, is in the answer.
 */
export class StreamHeads {
  private waiting = new Map<string, Asker[]>();
  private reading = false;

  constructor(private readonly store: Pick<EventStore, 'streamHeads'>) {}

  /** The stream's last event now, or undefined when it has none. */
  of(streamId: string): Promise<StreamHead | undefined> {
    return new Promise((resolve, reject) => {
      const askers = this.waiting.get(streamId);
      if (askers) askers.push({ resolve, reject });
      else this.waiting.set(streamId, [{ resolve, reject }]);
      if (!this.reading) {
        this.reading = true;
        // Questions asked in the same turn of the event loop go in the first read together.
        setImmediate(() => void this.read());
      }
    });
  }

  private async read(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = new Map<string, Asker[]>();
      for (const [streamId, askers] of this.waiting) {
        if (batch.size === MOST_PER_READ) break;
        batch.set(streamId, askers);
      }
      for (const streamId of batch.keys()) this.waiting.delete(streamId);
      try {
        const heads = await this.store.streamHeads([...batch.keys()]);
        for (const [streamId, askers] of batch)
          for (const asker of askers) asker.resolve(heads.get(streamId));
      } catch (error) {
        for (const askers of batch.values()) for (const asker of askers) asker.reject(error);
      }
    }
    this.reading = false;
  }
}
