/**
 * The event store port. Revisions count from 0 (the first event of a stream has revision 0);
 * positions are the global log's order, strictly increasing, starting above 0, with gaps: count
 * events, not positions.
 */

/** What a stream must look like for an append to succeed. */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface EventMetadata {
  commandId: string;
  correlationId: string;
  causationId: string;
  actorId: string;
  actorRole: string;
  /** Version of the event's data shape; old shapes are upcast on read. */
  schemaVersion: number;
  [key: string]: unknown;
}

export interface NewEvent {
  /** Unique event id (UUID); appending an event id that is already stored is a no-op. */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  revision: bigint;
  position: bigint;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextRevision: bigint;
  /** Global position of the last event written (or of the already-stored duplicate). */
  position: bigint;
  /**
   * True when these events were stored already (their ids were: a repeat of the same append), so
   * nothing was written now. A store that cannot tell a repeat from an append leaves it out.
   */
  alreadyStored?: boolean;
}

/** One stream's part of an append to several streams at once (`EventStore.appendTogether`). */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/**
 * What became of an append to several streams: every part stored (each part's result, in order),
 * or none, because the last event of part `part` was already stored (`stored` tells where).
 */
export type TogetherResult =
  | { outcome: 'appended'; results: AppendResult[] }
  | { outcome: 'repeated'; part: number; stored: AppendResult };

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

export interface ReadStreamOptions {
  /** Read the events from this revision on (from the first when omitted). */
  fromRevision?: bigint;
}

export interface ReadStreamResult {
  events: RecordedEvent[];
  /** Revision of the stream's last event, or 'no_stream' when the stream has none. */
  revision: bigint | 'no_stream';
}

/** Where a stream ends: its last event's revision and id. */
export interface StreamHead {
  revision: bigint;
  eventId: string;
}

export interface Subscription {
  /** Stops delivery; resolves when the handler is no longer called. */
  stop(): Promise<void>;
  /** Settles when the subscription ends: rejects if the handler or the store failed. */
  readonly done: Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams (each named once) in one transaction: every part is stored or none.
   * A part whose stream is not at its expected revision fails the whole with `WrongExpectedRevision`
   * naming that stream. The parts' events take consecutive positions, in the order of the parts.
   * Optional: a store without it has each part appended on its own, and callers that need the
   * parts together take other steps (see `AppendHooks`).
   */
  appendTogether?(parts: readonly StreamAppend[]): Promise<TogetherResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  /** The last event of each of these streams that has any, by stream: its revision and id. */
  streamHeads(streamIds: readonly string[]): Promise<Map<string, StreamHead>>;
  /**
   * Events with position > `after`, in global order, at most `limit`. Among them (up to the limit)
   * every event committed before the call, unless a transaction older than it is still running
   * after a moment: then those come in a later call, never out of order.
   */
  readAll(after: bigint, limit: number): Promise<RecordedEvent[]>;
  /** The events stored at these positions, in global order; a position that holds none gives none. */
  readAt(positions: readonly bigint[]): Promise<RecordedEvent[]>;
  /**
   * Delivers every event with position > `after`, in global order, exactly once, then follows new
   * ones. The handler is awaited before the next delivery.
   */
  subscribeToAll(after: bigint, handler: (event: RecordedEvent) => Promise<void>): Subscription;
  /**
   * Position of the last committed event (0 when empty). `readAll` may reach it a moment later,
   * once the transactions that could still write below it have ended.
   */
  headPosition(): Promise<bigint>;
  /**
   * Calls the listener soon after newly appended events (by any process) can be read, so followers
   * can read on without polling hard. Returns a function that stops the calls.
   */
  watch(listener: () => void): () => Promise<void>;
  close(): Promise<void>;
}
