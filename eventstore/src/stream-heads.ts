import type { EventStore, StreamHead } from './port';

/** The most streams asked about in one read. */
const MOST_PER_READ = 500;

interface Asker<Answer> {
  resolve(answer: Answer | undefined): void;
  reject(error: unknown): void;
}

/**
 * Answers read for many keys at once. The keys asked for while a read is on its way are read in
 * one go as soon as it is back, so a busy server makes one short read for many requests instead of
 * one each, and an idle one reads at once. Every answer comes from a read that started after it
 * was asked for, so it is as fresh as a read of its own: an event appended before the question, by
 * any process, is in the answer. A key asked for twice before its read is read once.
 */
export class AskedTogether<Key, Answer> {
  private waiting = new Map<Key, Asker<Answer>[]>();
  private reading = false;

  constructor(
    private readonly readMany: (keys: Key[]) => Promise<Map<Key, Answer>>,
    private readonly mostPerRead = MOST_PER_READ,
  ) {}

  /** The answer for `key` from a read that starts after this call, or undefined when it has none. */
  of(key: Key): Promise<Answer | undefined> {
    return new Promise((resolve, reject) => {
      const askers = this.waiting.get(key);
      if (askers) askers.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.reading) {
        this.reading = true;
        // Questions asked in the same turn of the event loop go in the first read together.
        setImmediate(() => void this.read());
      }
    });
  }

  private async read(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = new Map<Key, Asker<Answer>[]>();
      for (const [key, askers] of this.waiting) {
        if (batch.size === this.mostPerRead) break;
        batch.set(key, askers);
      }
      for (const key of batch.keys()) this.waiting.delete(key);
      try {
        const answers = await this.readMany([...batch.keys()]);
        for (const [key, askers] of batch) for (const asker of askers) asker.resolve(answers.get(key));
      } catch (error) {
        for (const askers of batch.values()) for (const asker of askers) asker.reject(error);
      }
    }
    this.reading = false;
  }
}

/** Where streams end now, asked for together (see `AskedTogether`). */
export class StreamHeads {
  private readonly asked: AskedTogether<string, StreamHead>;

  constructor(store: Pick<EventStore, 'streamHeads'>) {
    this.asked = new AskedTogether((streamIds) => store.streamHeads(streamIds));
  }

  /** The stream's last event now, or undefined when it has none. */
  of(streamId: string): Promise<StreamHead | undefined> {
    return this.asked.of(streamId);
  }
}
