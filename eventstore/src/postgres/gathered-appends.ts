/** One stream's part of an append, as `eventstore_append_each` takes it. */
export interface AppendPart {
  stream: string;
  /** The revision the stream must be at, as a string; null for a stream that must not exist. */
  expected: string | null;
  previousHash: string;
  events: { id: string; type: string; data: unknown; metadata: unknown }[];
}

/** What `eventstore_append_each` answers for one part of one append. */
export interface PartOutcome {
  append: number;
  part: number;
  outcome: 'appended' | 'duplicate' | 'conflict' | 'stale_hash';
  stream_revision: bigint | null;
  last_position: bigint | null;
}

/** How many statements of gathered appends may be on their way at once. */
export const STATEMENTS_IN_FLIGHT = 2;
/** The most appends in one statement; those beyond wait for the next. */
export const MOST_APPENDS_PER_STATEMENT = 100;
/** The most events in one statement (one append larger than this still goes, alone). */
export const MOST_EVENTS_PER_STATEMENT = 10_000;

interface Waiting {
  parts: AppendPart[];
  events: number;
  resolve(outcomes: PartOutcome[]): void;
  reject(error: unknown): void;
}

/**
 * Appends gathered into one statement, one transaction and one commit: an append goes at once
 * while fewer than `inFlight` statements are on their way, and otherwise waits with the others
 * that come meanwhile for the next statement. So a quiet store appends as it always did, and a busy
 * one makes one statement, one commit and one wait for the disk for many commands instead of one
 * each. Each append in a statement is checked and answered on its own (a conflict fails that append
 * alone). Should a statement of several fail as a whole (a racing copy of one append's events at
 * the unique index, say), each of its appends is made again in a statement of its own, so the
 * error reaches only the append that caused it.
 */
export class GatheredAppends {
  private readonly waiting: Waiting[] = [];
  private onTheirWay = 0;

  constructor(
    private readonly appendEach: (appends: AppendPart[][]) => Promise<PartOutcome[]>,
    private readonly inFlight = STATEMENTS_IN_FLIGHT,
    private readonly mostAppends = MOST_APPENDS_PER_STATEMENT,
    private readonly mostEvents = MOST_EVENTS_PER_STATEMENT,
  ) {}

  /** The outcome of each part of this append, in the order of its parts' answers. */
  append(parts: AppendPart[]): Promise<PartOutcome[]> {
    return new Promise((resolve, reject) => {
      const events = parts.reduce((sum, part) => sum + part.events.length, 0);
      this.waiting.push({ parts, events, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.onTheirWay < this.inFlight && this.waiting.length > 0) {
      const batch = [this.waiting.shift()!];
      let events = batch[0]!.events;
      while (
        batch.length < this.mostAppends &&
        this.waiting.length > 0 &&
        events + this.waiting[0]!.events <= this.mostEvents
      ) {
        events += this.waiting[0]!.events;
        batch.push(this.waiting.shift()!);
      }
      this.onTheirWay++;
      void this.run(batch).finally(() => {
        this.onTheirWay--;
        this.send();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    let outcomes: PartOutcome[];
    try {
      outcomes = await this.appendEach(batch.map((waiting) => waiting.parts));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // Each again on its own: the failure is the one append's that caused it.
      await Promise.all(
        batch.map((waiting) =>
          this.appendEach([waiting.parts]).then(waiting.resolve, (alone: unknown) => waiting.reject(alone)),
        ),
      );
      return;
    }
    const byAppend = batch.map((): PartOutcome[] => []);
    for (const outcome of outcomes) byAppend[outcome.append]?.push(outcome);
    for (const [i, waiting] of batch.entries()) waiting.resolve(byAppend[i]!);
  }
}
