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
const NS_PER_MS = 1_000_000;

/**
 * What the stream keeps: each event until every durable consumer has acknowledged (or parked) it,
 * and none for longer than 7 days, so that process managers stopped for good do not make it grow
 * without end. Message ids are event ids, deduplicated for 10 minutes.
 */
export const eventsStreamConfig = {
  subjects: ['shiftcover.events.>'],
  retention: RetentionPolicy.Interest,
  max_age: 7 * 24 * 60 * 60 * 1000 * NS_PER_MS,
  duplicate_window: 10 * 60 * 1000 * NS_PER_MS,
} satisfies Partial<StreamConfig>;

/**
 * Creates the stream, or brings one of an earlier configuration to this one. JetStream cannot
 * change a stream's retention in place, so a stream that kept every event is replaced; the
 * position before the first event one of its consumers had not acknowledged is returned, for the
 * bridge to publish again from there (the consumers' per-event records make the repeat harmless).
 */
export async function ensureEventsStream(jsm: JetStreamManager): Promise<bigint | undefined> {
  const info = await jsm.streams.info(EVENTS_STREAM).catch(() => undefined);
  if (!info) {
    await jsm.streams.add({ name: EVENTS_STREAM, ...eventsStreamConfig });
    return undefined;
  }
  if (info.config.retention === eventsStreamConfig.retention) {
    const { max_age, duplicate_window } = info.config;
    if (max_age !== eventsStreamConfig.max_age || duplicate_window !== eventsStreamConfig.duplicate_window) {
      await jsm.streams.update(EVENTS_STREAM, { ...info.config, ...eventsStreamConfig });
    }
    return undefined;
  }
  let firstUnacknowledged: number | undefined;
  for await (const consumer of jsm.consumers.list(EVENTS_STREAM)) {
    const next = Math.max(consumer.ack_floor.stream_seq + 1, info.state.first_seq);
    if (next <= info.state.last_seq) firstUnacknowledged = Math.min(firstUnacknowledged ?? next, next);
  }
  const message =
    firstUnacknowledged === undefined
      ? null
      : await jsm.streams.getMessage(EVENTS_STREAM, { seq: firstUnacknowledged }).catch(() => null);
  await jsm.streams.delete(EVENTS_STREAM);
  await jsm.streams.add({ name: EVENTS_STREAM, ...eventsStreamConfig });
  return message ? decodeEvent(message.string()).position - 1n : undefined;
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
 * Publishes the global log to JetStream in order, from its own checkpoint. The checkpoint moves
 * only after JetStream acknowledged, and a republish after a crash is dropped as a duplicate.
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

  /** Publishes again from just after `position` if the checkpoint is past it; call before `start`. */
  async rewind(position: bigint): Promise<void> {
    await this.deps.sql`insert into process_checkpoints (name) values (${NAME}) on conflict do nothing`;
    await this.deps.sql`update process_checkpoints set position = ${position.toString()}, updated_at = now()
      where name = ${NAME} and position > ${position.toString()}`;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.stopWatching?.();
    await this.loop;
  }

  /** Publishes the next batch; returns how many events went out. */
  async publishNextBatch(limit = 200): Promise<number> {
    const [row] = await this.deps.sql<
      { position: bigint }[]
    >`select position from process_checkpoints where name = ${NAME}`;
    const events = await this.deps.store.readAll(BigInt(row?.position ?? 0), limit);
    for (const event of events) {
      await this.deps.js.publish(subjectOf(event.type), encodeEvent(event), { msgID: event.id });
    }
    if (events.length > 0) {
      await this.deps
        .sql`update process_checkpoints set position = ${events.at(-1)!.position.toString()}, updated_at = now()
        where name = ${NAME}`;
    }
    return events.length;
  }

  private async follow() {
    let failures = 0;
    while (this.running) {
      try {
        this.notified = false;
        const published = await this.publishNextBatch();
        failures = 0;
        if (published > 0 || this.notified) continue;
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
