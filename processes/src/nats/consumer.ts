import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { errorText, isTransient, park } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { decodeEvent, EVENTS_STREAM } from './bridge';

export interface EventHandler {
  /** The durable consumer's name. */
  name: string;
  /**
   * The events it reads, when not all: the bridge publishes an event only when some consumer wants
   * it, so one that none wants never reaches JetStream.
   */
  wants?(event: RecordedEvent): boolean;
  /** Must be idempotent: JetStream may deliver an event again. */
  handle(event: RecordedEvent): Promise<void>;
  /** An operator's retry of a parked event, when it must skip checks `handle` makes. */
  retry?(event: RecordedEvent): Promise<void>;
  /**
   * Several events at once, in order, all or nothing (one transaction): what a busy stream delivers
   * together costs one round instead of one each. When it fails, the consumer hands the same events
   * to `handle` one at a time, so that one event's failure is retried and parked on its own.
   */
  handleBatch?(events: RecordedEvent[]): Promise<void>;
}

const MAX_DELIVER = 5;
/** The most messages handled together, and the most waiting to be. */
const BATCH = 50;
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000];

/**
 * A process manager as a durable JetStream consumer with explicit acks: a failing handler is
 * retried with growing pauses and, after the last attempt, parked in `parked_events` (the same
 * record the read models and the log-following planner use) where developers can see it and
 * retry or skip it. A failure of the infrastructure (PostgreSQL down, read models still catching
 * up) is never parked: JetStream keeps delivering the message, with pauses, until it goes through.
 */
export class JetStreamConsumer {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      sql: Sql;
      js: JetStreamClient;
      jsm: JetStreamManager;
      handler: EventHandler;
      maxDeliver?: number;
      /** How long a delivered message may stay unacknowledged before JetStream delivers it again. */
      ackWaitMs?: number;
      log?: { error(o: object, m: string): void };
    },
  ) {}

  private get maxDeliver(): number {
    return this.deps.maxDeliver ?? MAX_DELIVER;
  }

  async start(): Promise<void> {
    const { jsm, js, handler } = this.deps;
    // Deliveries are unlimited on the server: this consumer decides when an event is parked.
    const existing = await jsm.consumers.info(EVENTS_STREAM, handler.name).catch(() => undefined);
    if (!existing) {
      await jsm.consumers.add(EVENTS_STREAM, {
        durable_name: handler.name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        max_deliver: -1,
        ack_wait: (this.deps.ackWaitMs ?? 30_000) * 1_000_000,
      });
    } else if (existing.config.max_deliver !== -1) {
      await jsm.consumers.update(EVENTS_STREAM, handler.name, { max_deliver: -1 });
    }
    const consumer = await js.consumers.get(EVENTS_STREAM, handler.name);
    this.messages = await consumer.consume({ max_messages: BATCH, expires: 5_000 });
    this.loop = this.receive(this.messages).catch((error) =>
      // A lost connection ends the loop; unacknowledged messages are delivered again to the next start.
      this.deps.log?.error({ err: error, consumer: handler.name }, 'consumer stopped'),
    );
  }

  /**
   * Takes each message as it comes, with those delivered while the one before was handled: one at a
   * time when the stream is quiet, many together when it is busy. Messages wait here at most
   * `BATCH` at a time; past that the reader waits, so none waits past its ack wait unseen.
   */
  private async receive(messages: ConsumerMessages): Promise<void> {
    const waiting: JsMsg[] = [];
    let ended = false;
    let nudge: (() => void) | undefined;
    let taken: (() => void) | undefined;
    const reading = (async () => {
      try {
        for await (const message of messages) {
          waiting.push(message);
          nudge?.();
          while (waiting.length >= BATCH) await new Promise<void>((resolve) => (taken = resolve));
        }
      } finally {
        ended = true;
        nudge?.();
      }
    })();
    // A lost connection ends the reading; it is reported once what was read has been handled.
    const read = reading.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    for (;;) {
      if (waiting.length === 0) {
        if (ended) break;
        await new Promise<void>((resolve) => (nudge = resolve));
        nudge = undefined;
        continue;
      }
      const batch = waiting.splice(0, BATCH);
      taken?.();
      taken = undefined;
      try {
        await this.processBatch(batch);
      } catch (error) {
        // Parking failed (PostgreSQL unreachable, say): the loop goes on with the next message.
        this.deps.log?.error({ err: error, consumer: this.deps.handler.name }, 'message not settled');
      }
    }
    const failure = await read;
    if (failure) throw failure.error;
  }

  /**
   * Messages delivered for the first time go to the handler's `handleBatch` together, when it has
   * one; a batch that fails, or holds a redelivery (an event that failed before), is handled one
   * message at a time, each retried and parked on its own.
   */
  private async processBatch(messages: JsMsg[]): Promise<void> {
    const { handler } = this.deps;
    const readable: { message: JsMsg; event: RecordedEvent }[] = [];
    for (const message of messages) {
      const event = this.decode(message);
      if (event) readable.push({ message, event });
    }
    if (
      handler.handleBatch &&
      readable.length > 1 &&
      readable.every(({ message }) => message.info.deliveryCount === 1)
    ) {
      try {
        await handler.handleBatch(readable.map(({ event }) => event));
        for (const { message } of readable) message.ack();
        return;
      } catch (error) {
        // Each is tried on its own, below: the one that fails is retried and parked by itself.
        this.deps.log?.error(
          { err: error, consumer: handler.name, events: readable.length },
          'batch not handled: its messages are handled one at a time',
        );
      }
    }
    for (const { message, event } of readable) {
      try {
        await this.process(message, event);
      } catch (error) {
        this.deps.log?.error({ err: error, consumer: handler.name }, 'message not settled');
      }
    }
  }

  private decode(message: JsMsg): RecordedEvent | undefined {
    try {
      return decodeEvent(message.string());
    } catch (error) {
      this.deps.log?.error({ err: error, consumer: this.deps.handler.name }, 'unreadable message dropped');
      message.term('unreadable');
      return undefined;
    }
  }

  private async process(message: JsMsg, event: RecordedEvent): Promise<void> {
    try {
      await this.deps.handler.handle(event);
      message.ack();
    } catch (error) {
      const attempt = message.info.deliveryCount;
      if (attempt >= this.maxDeliver && !isTransient(error)) {
        this.deps.log?.error(
          { err: error, consumer: this.deps.handler.name, eventId: event.id },
          'event parked',
        );
        await park(this.deps.sql, this.deps.handler.name, { event, error: errorText(error) });
        message.term('parked after repeated failures');
      } else {
        message.nak(BACKOFF_MS[attempt - 1] ?? BACKOFF_MS.at(-1));
      }
    }
  }

  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop;
  }
}
