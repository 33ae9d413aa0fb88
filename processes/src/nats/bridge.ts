import {
  type JetStreamClient,
  type JetStreamManager,
  RetentionPolicy,
  type StreamConfig,
} from '@nats-io/jetstream';
import type { EventStore, RecordedEvent } from '@shiftcover/eventstore';
import type { Sql } from 'postgres';

export const EVENTS_STREAM = 'SHIFTCOVER_EVENTS';
export const subjectOf = (type: string) => `shiftcover.events.${type}`;
const NAME = 'nats-bridge';
/** Events published per round. */
const BATCH = 200;
const NS_PER_MS = 1_000_000;

/**
 * What the stream keeps: every event for 7 days, so that process managers stopped for good do not
 * make it grow without end. Message ids are event ids, deduplicated for 10 minutes. Not interest
 * retention: nats-server 2.9 (Debian's) can drop unacknowledged messages of an interest stream when
 * it restarts, and a dropped event is a mail never sent.
 */
export const eventsStreamConfig = {
  subjects: ['shiftcover.events.>'],
  retention: RetentionPolicy.Limits,
  max_age: 7 * 24 * 60 * 60 * 1000 * NS_PER_MS,
  duplicate_window: 10 * 60 * 1000 * NS_PER_MS,
} satisfies Partial<StreamConfig>;

/** Creates the stream, or brings the limits of one made by an earlier version to these, in place. */
export async function ensureEventsStream(jsm: JetStreamManager): Promise<void> {
  const info = await jsm.streams.info(EVENTS_STREAM).catch(() => undefined);
  if (!info) {
    await jsm.streams.add({ name: EVENTS_STREAM, ...eventsStreamConfig });
    return;
  }
  const { retention, max_age, duplicate_window } = info.config;
  if (
    retention !== eventsStreamConfig.retention ||
    max_age !== eventsStreamConfig.max_age ||
    duplicate_window !== eventsStreamConfig.duplicate_window
  ) {
    await jsm.streams.update(EVENTS_STREAM, { ...info.config, ...eventsStreamConfig });
  }
}

/** An event as it travels on NATS: sealed personal data stays sealed, bigints travel as strings. */
export function encodeEvent(event: RecordedEvent): string {
  return JSON.stringify({
    ...event,
    revision: event.revision.toString(),
    position: event.position.toString(),
  });
}

export function decodeEvent(text: string): RecordedEvent {
  const raw = JSON.parse(text);
  return {
    ...raw,
    revision: BigInt(raw.revision),
    position: BigInt(raw.position),
    recordedAt: new Date(raw.recordedAt),
  };
}

/**
 * Publishes the global log to JetStream in order, from its own checkpoint: the events some process
 * manager reads (`publishes`), the others passed over. The checkpoint moves only after JetStream
 * acknowledged, and a republish after a crash is dropped as a duplicate.
 *
 * A batch goes out without waiting for each acknowledgement: its first event alone, then the rest
 * together, each stored by JetStream only while the event published before it is the stream's last
 * message (`expect.lastMsgID`). An event lost on the way (a connection dropped between two
 * publishes) therefore has every later one of its batch refused rather than stored ahead of it; the
 * checkpoint moves past the acknowledged run before the loss, and the next round publishes from
 * there. JetStream drops a duplicate before it looks at the expectation, so events another bridge
 * already published pass as duplicates. The first event needs no expectation: everything up to the
 * checkpoint is on the stream, so it is either the next one or a duplicate.
 */
export class EventBridge {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private notified = false;
  private stopWatching: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: {
      sql: Sql;
      store: EventStore;
      js: JetStreamClient;
      /**
       * The events some process manager reads: the others pass the bridge unpublished, its
       * checkpoint moving past them all the same. Every event when absent.
       */
      publishes?: (event: RecordedEvent) => boolean;
      log?: { error(o: object, m: string): void };
    },
  ) {}

  async start(): Promise<void> {
    await this.deps.sql`insert into process_checkpoints (name) values (${NAME}) on conflict do nothing`;
    this.running = true;
    this.stopWatching = this.deps.store.watch(() => {
      this.notified = true;
      this.wake?.();
    });
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.stopWatching?.();
    await this.loop;
  }

  /**
   * Publishes the next batch; returns how many events of the log it passed, published or not wanted.
   * When JetStream refuses or loses one after the first published, those before it count and the
   * checkpoint moves past them; when the first fails, nothing moves and the error is thrown.
   */
  async publishNextBatch(limit = BATCH): Promise<number> {
    const [row] = await this.deps.sql<
      { position: bigint }[]
    >`select position from process_checkpoints where name = ${NAME}`;
    const events = await this.deps.store.readAll(BigInt(row?.position ?? 0), limit);
    if (events.length === 0) return 0;
    const wanted = events.filter((event) => this.published(event));
    const publish = (event: RecordedEvent, after?: RecordedEvent) =>
      this.deps.js.publish(subjectOf(event.type), encodeEvent(event), {
        msgID: event.id,
        ...(after ? { expect: { lastMsgID: after.id } } : {}),
      });
    // Each expects the one published before it, the events passed over between them not being on the stream.
    if (wanted.length > 0) await publish(wanted[0]!);
    const acks = await Promise.allSettled(wanted.slice(1).map((event, i) => publish(event, wanted[i])));
    const refused = acks.findIndex((ack) => ack.status === 'rejected');
    // The log's events up to the first not published: all of the batch, or those before the refused one.
    const passed = refused === -1 ? events.length : events.indexOf(wanted[refused + 1]!);
    await this.deps
      .sql`update process_checkpoints set position = ${events[passed - 1]!.position.toString()}, updated_at = now()
      where name = ${NAME}`;
    if (refused !== -1) {
      this.deps.log?.error(
        { err: (acks[refused] as PromiseRejectedResult).reason, eventId: events[passed]!.id },
        'publishing to NATS stopped partway through a batch: the rest follows from the checkpoint',
      );
      // The rest is waiting: the loop goes on at once.
      this.notified = true;
    }
    return passed;
  }

  /**
   * Whether an event goes out. One the predicate cannot judge (it throws on the event's data) goes
   * out too: the consumers then handle it or park it where operators see it, and publishing never
   * stops on it.
   */
  private published(event: RecordedEvent): boolean {
    try {
      return this.deps.publishes?.(event) ?? true;
    } catch {
      return true;
    }
  }

  private async follow() {
    let failures = 0;
    while (this.running) {
      try {
        this.notified = false;
        const passed = await this.publishNextBatch(BATCH);
        failures = 0;
        // A short batch reached the head of the log: the next comes with the doorbell.
        if (passed >= BATCH || this.notified) continue;
        await this.pause(1000);
      } catch (error) {
        failures += 1;
        this.deps.log?.error({ err: error }, 'publishing events to NATS failed');
        await this.pause(Math.min(30_000, 250 * 2 ** failures));
      }
    }
  }

  private pause(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
