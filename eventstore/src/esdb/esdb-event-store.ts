import {
  BACKWARDS,
  END,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  type Position,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { type ChainKey, chainEvents, chainHashOf } from '../chain';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamHead,
  type Subscription,
  WrongExpectedRevision,
} from '../port';

export interface EsdbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false`; EventStoreDB 22.10 or later (events carry their position). */
  connectionString: string;
  /** The audit chain key (see chain.ts); without it events are chained unkeyed. */
  chainKey?: ChainKey;
}

/**
 * The port over EventStoreDB. Revisions are 0-based there too. A global position is the event's
 * commit position: every event of an append is committed on its own log record, so the commit
 * position is unique per event and increases in `$all` order.
 */
export function createEsdbEventStore({ connectionString, chainKey }: EsdbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  const fromPosition = (after: bigint): Position | typeof START =>
    after === 0n ? START : { commit: after, prepare: after };

  /** Ours, or undefined for system events, events in `$` streams and binary events. */
  function toRecorded(event: EsdbRecordedEvent | undefined): RecordedEvent | undefined {
    if (!event?.isJson || event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
    return {
      id: event.id,
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: event.metadata as EventMetadata,
      streamId: event.streamId,
      revision: event.revision,
      position: event.position?.commit ?? 0n,
      recordedAt: event.created,
    };
  }

  async function eventAt(streamId: string, revision: bigint): Promise<RecordedEvent | undefined> {
    for await (const resolved of client.readStream(streamId, { fromRevision: revision, maxCount: 1 })) {
      return toRecorded(resolved.event);
    }
    return undefined;
  }

  async function lastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    try {
      for await (const resolved of client.readStream(streamId, {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      })) {
        return toRecorded(resolved.event);
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return undefined;
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('Nothing to append');
    // The chain needs the stream's last hash, so an append "at any revision" is made at the
    // revision just read, and read again if another append got in between.
    for (let attempt = 0; ; attempt++) {
      const last = await lastEvent(streamId);
      const actual = last ? last.revision : 'no_stream';
      const first = last ? last.revision + 1n : 0n;
      const chained = chainEvents(streamId, first, chainHashOf(last), events, chainKey);
      const revision = expected === 'any' ? actual : expected;
      try {
        const result = await client.appendToStream(
          streamId,
          chained.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
          { expectedRevision: revision === 'no_stream' ? NO_STREAM : revision },
        );
        // The append's own position is not the last event's (and a deduplicated append reports the
        // original write's), so the last event is read back by its revision.
        const written = await eventAt(streamId, result.nextExpectedRevision);
        return { nextRevision: result.nextExpectedRevision, position: written?.position ?? 0n };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          if (expected === 'any' && attempt < 20) continue;
          const found = error.actualVersion === NO_STREAM ? 'no_stream' : (error.actualVersion as bigint);
          throw new WrongExpectedRevision(streamId, expected, found);
        }
        throw error;
      }
    }
  }

  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, {
        fromRevision: options.fromRevision ?? START,
      })) {
        const event = toRecorded(resolved.event);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { events: [], revision: 'no_stream' };
      throw error;
    }
    const last = events.at(-1) ?? (options.fromRevision ? await lastEvent(streamId) : undefined);
    return { events, revision: last?.revision ?? 'no_stream' };
  }

  async function streamHeads(streamIds: readonly string[]): Promise<Map<string, StreamHead>> {
    const heads = new Map<string, StreamHead>();
    await Promise.all(
      [...new Set(streamIds)].map(async (streamId) => {
        const last = await lastEvent(streamId);
        if (last) heads.set(streamId, { revision: last.revision, eventId: last.id });
      }),
    );
    return heads;
  }

  async function readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    // System events count towards maxCount, so read on until enough of ours have arrived.
    for await (const resolved of client.readAll({ fromPosition: fromPosition(after) })) {
      const event = toRecorded(resolved.event);
      if (event && event.position > after) events.push(event);
      if (events.length >= limit) break;
    }
    return events;
  }

  // A position is an event's commit position, and reading `$all` from a position starts at it.
  async function readAt(positions: readonly bigint[]): Promise<RecordedEvent[]> {
    const found = await Promise.all(
      [...new Set(positions)].map(async (position) => {
        for await (const resolved of client.readAll({ fromPosition: fromPosition(position), maxCount: 1 })) {
          const event = toRecorded(resolved.event);
          if (event?.position === position) return event;
        }
        return undefined;
      }),
    );
    return found.flatMap((event) => event ?? []).sort((a, b) => (a.position < b.position ? -1 : 1));
  }

  async function headPosition(): Promise<bigint> {
    for await (const resolved of client.readAll({ fromPosition: END, direction: BACKWARDS })) {
      const event = toRecorded(resolved.event);
      if (event) return event.position;
    }
    return 0n;
  }

  function subscribeToAll(after: bigint, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const subscription = client.subscribeToAll({
      fromPosition: fromPosition(after),
      filter: excludeSystemEvents(),
    });
    let stopped = false;
    const done = (async () => {
      try {
        for await (const resolved of subscription) {
          if (stopped) break;
          const event = toRecorded(resolved.event);
          // The start position may be delivered again; the port's `after` is exclusive.
          if (event && event.position > after) await handler(event);
        }
      } finally {
        await subscription.unsubscribe();
      }
    })();
    return {
      done,
      async stop() {
        stopped = true;
        await subscription.unsubscribe();
        await done.catch(() => undefined);
      },
    };
  }

  function watch(listener: () => void): () => Promise<void> {
    const subscription = client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    subscription.on('data', () => listener());
    // A watcher only hurries followers along; losing it costs latency, not events.
    subscription.on('error', () => undefined);
    return () => subscription.unsubscribe();
  }

  return {
    append,
    readStream,
    readAll,
    readAt,
    streamHeads,
    subscribeToAll,
    headPosition,
    watch,
    close: () => client.dispose(),
  };
}
